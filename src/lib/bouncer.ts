// The client of a push notification bouncer, speaking the reference server's protocol (zerver/lib/remote_server.py):
// requests to <bouncer>/api/v1/remotes/<endpoint>, Basic credentials of this server (org id and key), a form or a
// JSON body; a 5xx or a failed connection may be retried, a 4xx is the bouncer's refusal (its `code` and `msg`).
import type { Config } from '../config.js';
import { ZULIP_VERSION } from '../version.js';
import { allowingHost, guardedFetch } from './guarded-fetch.js';

export class BouncerError extends Error {
  constructor(message: string, readonly code: string | null, readonly retry: boolean) {
    super(message);
  }
}

export interface Bouncer {
  url: string;
  orgId: string;
  orgKey: string;
}

export function bouncerOf(config: Config): Bouncer | null {
  if (!config.pushBouncerUrl) return null;
  return { url: config.pushBouncerUrl, orgId: config.pushBouncerOrgId ?? '', orgKey: config.pushBouncerOrgKey ?? '' };
}

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

interface Answer {
  status: number;
  body: Buffer;
}

// The one HTTP call to the bouncer, through the guarded fetcher like every server-side fetch: the bouncer is the
// operator's configuration, so its host is allowed even when private; no redirect is followed.
async function post(address: string, opts: { method: 'POST'; headers: Record<string, string>; body: string; timeoutMs: number; maxBytes: number }): Promise<Answer> {
  const res = await guardedFetch(address, { ...opts, maxRedirects: 0, allow: allowingHost(new URL(address).hostname.replace(/^\[|\]$/g, '')) });
  return { status: res.status, body: res.body };
}

export async function sendToBouncer(b: Bouncer, endpoint: string, data: { form: Record<string, string | number> } | { json: unknown }): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {
    authorization: 'Basic ' + Buffer.from(`${b.orgId}:${b.orgKey}`).toString('base64'),
    'user-agent': `ZulipServer/${ZULIP_VERSION}`,
  };
  let body: string;
  if ('json' in data) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(data.json);
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(data.form).map(([k, v]) => [k, String(v)])).toString();
  }
  let res: Answer;
  try {
    res = await post(new URL(`/api/v1/remotes/${endpoint}`, b.url).href, { method: 'POST', headers, body, timeoutMs: TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES });
  } catch (err) {
    throw new BouncerError(`${(err as Error).name} while trying to connect to push notification bouncer`, null, true);
  }
  if (res.status >= 500) throw new BouncerError(`Received ${res.status} from push notification bouncer`, null, true);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new BouncerError(`Push notification bouncer returned invalid JSON (status ${res.status})`, null, false);
  }
  if (res.status >= 400) throw new BouncerError(String(parsed.msg ?? 'error'), typeof parsed.code === 'string' ? parsed.code : null, false);
  if (res.status !== 200) throw new BouncerError(`Push notification bouncer returned unexpected status code ${res.status}`, null, false);
  return parsed;
}
