import type { App } from '../app.js';

// The URL's host without the port. Not parsed with URL: an organization's host such as lear.127.0.0.1 is not a
// valid URL host, yet names the organization.
export const hostOf = (url: string) => url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/s, '').replace(/:\d*$/, '');

// The organization's public URL, from configuration only: PARLANCE_EXTERNAL_URL, else the address this process
// listens on (as printed at start-up), with the organization's subdomain in front. Never from a request's Host,
// which anyone can forge: this URL goes into stored messages, links and bot addresses that others read.
export function organizationUrl(app: Pick<App, 'config' | 'listenUrl'>, realm: { stringId: string }): string {
  const base = new URL(app.config.externalUrl ?? app.listenUrl ?? `http://${app.config.host}:${app.config.port}`);
  return realm.stringId ? `${base.protocol}//${realm.stringId}.${base.host}` : base.origin;
}

// Its host name: the domain of bot addresses (realm_bot_domain).
export const organizationHost = (app: Pick<App, 'config' | 'listenUrl'>, realm: { stringId: string }) => hostOf(organizationUrl(app, realm));
