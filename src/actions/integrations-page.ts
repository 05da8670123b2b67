// The administrators' integrations page: for a chosen incoming-webhook bot and channel, the URL to paste into each
// tool. Only administrators see it, and only the bots whose keys they may see (src/permissions/bots.ts).
import type { App } from '../app.js';
import { AccessDeniedError } from '../lib/errors.js';
import { BOT_TYPE } from '../format/bots.js';
import type { IntegrationsView } from '../format/integrations-page.js';
import { INTEGRATIONS } from '../integrations/index.js';
import { organizationUrl } from '../lib/urls.js';
import { isRealmAdmin } from '../permissions/channels.js';
import { seesBotSecrets } from '../permissions/bots.js';
import type { Realm } from '../store/realms.js';
import { listStreams } from '../store/streams.js';
import { listUsers, type User } from '../store/users.js';


export async function accessIntegrationsPage(app: App, realm: Realm, user: User, botId: number | undefined, channel: string | undefined): Promise<IntegrationsView> {
  if (!isRealmAdmin(user)) throw new AccessDeniedError('Only organization administrators can see the integrations page.');
  const bots = (await listUsers(app.db, realm.id)).filter((u) => u.isActive && u.isBot && u.botType === BOT_TYPE.incomingWebhook && seesBotSecrets(user, u));
  const channels = (await listStreams(app.db, realm.id)).filter((s) => !s.isArchived && !s.inviteOnly).map((s) => s.name);
  const bot = bots.find((b) => b.id === botId);
  const view: IntegrationsView = { bots: bots.map((b) => ({ id: b.id, name: b.fullName })), channels, chosen: null, urls: [] };
  if (!bot || !channel) return view;
  view.chosen = { botId: bot.id, channel };
  const base = organizationUrl(app, realm).replace(/\/$/, '');
  for (const i of INTEGRATIONS.values()) {
    const query = `api_key=${encodeURIComponent(bot.apiKey)}&stream=${encodeURIComponent(channel)}`;
    view.urls.push({ name: i.name, displayName: i.displayName, events: i.events, url: `${base}/api/v1/external/${i.name}?${query}`, header: i.eventHeader });
  }
  return view;
}
