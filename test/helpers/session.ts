// A browser's view of the server without a browser: logging in through the form, and calling /json/ with the
// session cookie and the CSRF token as the web app does.
import assert from 'node:assert/strict';
import { send, type Reply } from './client.js';
import type { SeedName, TestServer } from './server.js';

export function setCookies(res: Reply): Map<string, { value: string; attrs: string }> {
  const out = new Map<string, { value: string; attrs: string }>();
  const header = res.headers['set-cookie'] ?? [];
  for (const line of Array.isArray(header) ? header : [header]) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    out.set(pair.slice(0, eq).trim(), { value: pair.slice(eq + 1).trim(), attrs: attrs.join(';').trim() });
  }
  return out;
}

export function form(method: 'GET' | 'POST', url: URL, fields?: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const body = fields && new URLSearchParams(fields).toString();
  return send(method, url, { ...headers, ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, body);
}

export class SessionClient {
  constructor(readonly baseUrl: string, public session: string, public csrf: string, readonly host?: string) {}

  get cookie(): string {
    return `sessionid=${this.session}; csrftoken=${this.csrf}`;
  }

  // `csrf: false` leaves the token out; a string sends that one instead.
  async request(method: string, path: string, params: Record<string, unknown> = {}, opts: { csrf?: string | false; headers?: Record<string, string> } = {}): Promise<Reply> {
    const url = new URL(path.startsWith('/json/') || path.startsWith('/user_uploads') || path.startsWith('/avatar') ? path : `/json${path}`, this.baseUrl);
    const entries = Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
    const headers: Record<string, string> = { cookie: this.cookie, ...opts.headers };
    if (this.host) headers.host = this.host;
    if (opts.csrf !== false) headers['x-csrftoken'] = opts.csrf ?? this.csrf;
    if (method === 'GET') {
      for (const [k, v] of entries) url.searchParams.set(k, v);
      return send(method, url, headers);
    }
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return send(method, url, headers, new URLSearchParams(entries).toString());
  }

  get(path: string, params?: Record<string, unknown>, opts?: { csrf?: string | false; headers?: Record<string, string> }) {
    return this.request('GET', path, params, opts);
  }
  post(path: string, params?: Record<string, unknown>, opts?: { csrf?: string | false; headers?: Record<string, string> }) {
    return this.request('POST', path, params, opts);
  }
  patch(path: string, params?: Record<string, unknown>, opts?: { csrf?: string | false; headers?: Record<string, string> }) {
    return this.request('PATCH', path, params, opts);
  }
  delete(path: string, params?: Record<string, unknown>, opts?: { csrf?: string | false; headers?: Record<string, string> }) {
    return this.request('DELETE', path, params, opts);
  }
}

// Logs in through the form, as a person does; fails the test unless that worked.
export async function logIn(server: TestServer, name: SeedName, password = server.users[name].password, host?: string): Promise<SessionClient> {
  const res = await form('POST', new URL('/accounts/login/', server.url), { username: server.users[name].email, password }, host ? { host } : {});
  assert.equal(res.status, 302, res.text);
  const cookies = setCookies(res);
  const session = cookies.get('sessionid')?.value;
  const csrf = cookies.get('csrftoken')?.value;
  assert.ok(session && csrf, JSON.stringify([...cookies]));
  return new SessionClient(server.url, session, csrf, host);
}
