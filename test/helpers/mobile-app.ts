// A client that sends exactly what the official mobile app (zulip-flutter, lib/api/core.dart) sends: every value
// JSON-encoded except those it passes raw (RawParameter: plain strings), GET parameters in the query string,
// POST/PATCH/DELETE bodies urlencoded, Basic credentials; and that checks every reply as the app parses it
// (helpers/mobile-app-model.ts) and, where the reference describes the endpoint, against the reference schema.
import assert from 'node:assert/strict';
import { send, type Reply } from './client.js';
import type { TestServer } from './server.js';
import { appEventErrors, appReplyErrors } from './mobile-app-model.js';
import { assertMatchesSchema } from './openapi.js';
import { validateEvent } from './openapi-events.js';

export class Raw {
  constructor(readonly value: string) {}
}
const encode = (v: unknown) => (v instanceof Raw ? v.value : JSON.stringify(v));

export interface Check {
  app?: string; // the app's route (mobile-app-model.ts REPLIES), when the app parses the reply
  ref?: string; // the reference's path, when its schema describes the reply
}

export class MobileApp {
  email = '';
  apiKey = '';
  events: Record<string, any>[] = [];
  queueId = '';
  lastEventId = -1;
  readonly calls: string[] = [];

  constructor(readonly server: TestServer) {}

  private headers(auth: boolean): Record<string, string> {
    const h: Record<string, string> = { 'user-agent': 'ZulipFlutter/30.0.300+300 (Android 14)' };
    if (auth && this.email) h.authorization = 'Basic ' + Buffer.from(`${this.email}:${this.apiKey}`).toString('base64');
    return h;
  }

  async request(method: string, path: string, params: Record<string, unknown> | null, check: Check, auth = true): Promise<any> {
    const url = new URL(`/api/v1/${path}`, this.server.url);
    const entries = Object.entries(params ?? {}).filter(([, v]) => v !== undefined);
    const headers = this.headers(auth);
    let body: string | undefined;
    if (method === 'GET') for (const [k, v] of entries) url.searchParams.set(k, encode(v));
    else if (params !== null) {
      headers['content-type'] = 'application/x-www-form-urlencoded; charset=utf-8';
      body = new URLSearchParams(entries.map(([k, v]) => [k, encode(v)])).toString();
    }
    const reply: Reply = await send(method, url, headers, body);
    this.calls.push(`${method} ${path}`);
    assert.equal(reply.status, 200, `${method} ${path}: ${reply.text}`);
    if (check.app) assert.deepEqual(appReplyErrors(check.app, reply.body), [], `${method} ${path}: the app would not parse this reply`);
    if (check.ref) assertMatchesSchema(check.ref, method, reply.body);
    return reply.body;
  }

  get = (path: string, params: Record<string, unknown> | null, check: Check = {}) => this.request('GET', path, params, check);
  post = (path: string, params: Record<string, unknown> | null, check: Check = {}) => this.request('POST', path, params, check);
  patch = (path: string, params: Record<string, unknown> | null, check: Check = {}) => this.request('PATCH', path, params, check);
  delete = (path: string, params: Record<string, unknown> | null, check: Check = {}) => this.request('DELETE', path, params, check);

  // One GET /events, as the app polls (dont_block here, so that a test never waits for a heartbeat); every
  // event is checked as the app parses it and against the reference schema.
  async poll(): Promise<Record<string, any>[]> {
    const body = await this.get('events', { queue_id: new Raw(this.queueId), last_event_id: this.lastEventId, dont_block: true }, { app: 'GET /events' });
    for (const e of body.events) {
      assert.deepEqual(appEventErrors(e), [], `the app would not parse ${JSON.stringify(e).slice(0, 300)}`);
      assert.deepEqual(validateEvent(e), [], `not in the reference shape: ${JSON.stringify(e).slice(0, 300)}`);
    }
    if (body.events.length) this.lastEventId = body.events.at(-1).id;
    this.events.push(...body.events);
    return body.events;
  }
}
