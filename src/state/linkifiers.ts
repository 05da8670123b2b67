// The realm_linkifiers register block.
import { UriTemplate } from '../lib/uri-template.js';
import type { Db } from '../store/db.js';
import { listLinkifiers, type Linkifier } from '../store/linkifiers.js';
import type { Realm } from '../store/realms.js';

// Clients that did not declare linkifier_url_template cannot read templates: they get an empty
// `realm_linkifiers` and, instead, the legacy `realm_filters`.
export async function linkifierState(db: Db, realm: Realm, capabilities: Record<string, boolean>, legacy: boolean): Promise<Record<string, unknown>> {
  const modern = !!capabilities.linkifier_url_template;
  if (legacy) return { realm_filters: modern ? [] : (await listLinkifiers(db, realm.id)).map(legacyLinkifier) };
  return { realm_linkifiers: modern ? (await listLinkifiers(db, realm.id)).map(formatLinkifier) : [] };
}

// The format before URL templates (feature level 176): [pattern, "%(name)s" URL format, id].
export const legacyLinkifier = (l: Linkifier) => [l.pattern, UriTemplate.parse(l.urlTemplate)?.legacyFormat() ?? l.urlTemplate, l.id];

export const formatLinkifier = (l: Linkifier) => ({ pattern: l.pattern, url_template: l.urlTemplate, id: l.id });
