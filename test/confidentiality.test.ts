// Confidentiality sweep: a private channel carries a unique marker in its name, description, topic, messages,
// edit history, a draft, a scheduled message, a direct message and an uploaded file; so do one user's private
// things (an alert word, a reminder, a bot's outgoing webhook) and a user's e-mail address hidden from others.
// Users without access — a member who is not subscribed, a guest, the owner of another organization, a
// deactivated former subscriber, and nobody at all — call every GET endpoint and the read-style POSTs with the
// channel's ids and names, and read their event queues during the whole scenario: the marker never appears, and
// probing a secret id or name is answered exactly as probing one that does not exist. A second marker, in what
// the whole organization shares (a custom profile field, a bot's name, an e-mail domain), reaches nobody outside
// it, and secret keys (an invitation link's, a bot's API key) reach no outsider at all.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Client, type ParamValue, type Reply } from './helpers/client.js';
import { startTestServer, PASSWORD, type TestServer } from './helpers/server.js';
import { uploaded } from './helpers/uploads.js';

const MARKER = `zqx${crypto.randomBytes(5).toString('hex')}`;
const DECOY = `zqx${crypto.randomBytes(5).toString('hex')}`; // names nothing; same length
const DECOY_ID = 2_000_000_000;
const ORG_MARKER = `zqy${crypto.randomBytes(5).toString('hex')}`;
const HIDDEN_EMAIL = `${MARKER}@zulip.example.com`;
const SECRET_PATH_PARAMS = new Set(['stream_id', 'message_id', 'draft_id', 'scheduled_message_id']);

let server: TestServer;
let outsiders: Record<string, Client>;
let ghost: Client; // a subscriber deactivated before the secrets were written
const queues: { who: string; client: Client; id: string; last: number }[] = [];
const secret = { channel: 0, channelName: '', message: 0, dm: 0, deleted: 0, draft: 0, scheduled: 0, topic: '', file: '', fileMessage: 0, attachment: 0 };
const keys: string[] = []; // secret to every outsider
const leaks: string[] = [];
const outsideOrganization = (who: string) => ['lear', 'ghost', 'anonymous'].includes(who);

function checkSecrets(who: string, where: string, text: string): void {
  const found = [...keys, ...(outsideOrganization(who) ? [ORG_MARKER] : [])].find((k) => text.includes(k));
  if (found) leaks.push(`${where} → ${text.slice(Math.max(0, text.indexOf(found) - 150), text.indexOf(found) + 100)}`);
}
let ghostGone = false;

before(async () => {
  server = await startTestServer();
  const email = 'ghost@zulip.example.com';
  await server.as('iago').post('/users', { email, password: PASSWORD, full_name: 'Ghost' });
  const key = (await server.anon().post('/fetch_api_key', { username: email, password: PASSWORD })).body.api_key;
  ghost = new Client(server.url, { email, apiKey: key });
  outsiders = { hamlet: server.as('hamlet'), polonius: server.as('polonius'), lear: server.as('lear'), ghost, anonymous: server.anon() };
});
after(() => server.close());

// A probe that names a secret (the marker, or a secret id where an id is expected) is repeated with the secret
// swapped for something that names nothing; the two answers must be the same, but for the swapped values.
const messageIds = () => new Set([secret.message, secret.dm, secret.deleted, secret.fileMessage]);
const swapId = (n: unknown, ids: Set<number>) => (typeof n === 'number' && ids.has(n) ? DECOY_ID : n);
function swap(params: Record<string, ParamValue>): Record<string, ParamValue> {
  const out = JSON.parse(JSON.stringify(params).replaceAll(MARKER, DECOY)) as Record<string, any>;
  const channel = new Set([secret.channel]);
  for (const key of ['stream_id', 'to']) out[key] = swapId(out[key], channel);
  out.message_id = swapId(out.message_id, messageIds());
  for (const key of ['msg_ids', 'messages']) if (Array.isArray(out[key])) out[key] = out[key].map((n: unknown) => swapId(n, messageIds()));
  if (Array.isArray(out.drafts)) out.drafts = out.drafts.map((d: { to: unknown[] }) => ({ ...d, to: d.to.map((n) => swapId(n, channel)) }));
  if (Array.isArray(out.narrow)) {
    out.narrow = out.narrow.map(([op, operand]: [string, unknown]) => [op, swapId(operand, ['channel', 'stream'].includes(op) ? channel : ['id', 'near', 'with'].includes(op) ? messageIds() : new Set())]);
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

// Error messages may quote the id a client sent; queue ids differ between any two registrations.
function normalize(text: string, ids: number[]): string {
  let out = text.replaceAll(MARKER, DECOY).replace(/"queue_id":"[^"]*"/g, '"queue_id":"…"')
    .replace(/"server_timestamp":[0-9.]+/g, '"server_timestamp":0');
  for (const id of ids) out = out.replace(new RegExp(`(?<![0-9A-Za-z])${id}(?![0-9A-Za-z])`, 'g'), String(DECOY_ID));
  return out;
}

// Paths outside /api/v1 (files, avatars, pages) are requested as they are.
const ROOT = /^\/(user_uploads|user_avatars|avatar|join|accounts|static)\//;

async function probe(who: string, client: Client, method: string, path: string, params: Record<string, ParamValue> = {}, decoyPath = path): Promise<Reply> {
  const request = (p: string, values: Record<string, ParamValue>) => client.request(method, p, values, { root: ROOT.test(p) });
  const reply = await request(path, params);
  const where = `${who}: ${method} ${path} ${JSON.stringify(params).slice(0, 200)}`;
  const decoyParams = swap(params);
  const swappedPath = decoyPath.replaceAll(MARKER, DECOY);
  if (swappedPath !== path || JSON.stringify(decoyParams) !== JSON.stringify(params)) {
    const control = await request(swappedPath, decoyParams);
    const named = (id: number) => new RegExp(`(?<![0-9A-Za-z])${id}(?![0-9A-Za-z])`).test(`${path} ${JSON.stringify(params)}`);
    const swappedIds = reply.status >= 400 ? [secret.channel, ...messageIds(), secret.draft, secret.scheduled, secret.attachment].filter(named) : [];
    if (normalize(reply.text, swappedIds) !== normalize(control.text, []) || reply.status !== control.status) {
      const [a, b] = [normalize(reply.text, swappedIds), normalize(control.text, [])];
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      leaks.push(`${where} → ${reply.status} …${a.slice(Math.max(0, i - 100), i + 200)}; for nothing: ${control.status} …${b.slice(Math.max(0, i - 100), i + 200)}`);
    }
  } else if (reply.text.includes(MARKER)) {
    leaks.push(`${where} → ${reply.text.slice(0, 300)}`);
  }
  checkSecrets(who, where, reply.text);
  return reply;
}

// Events of the outsiders' queues: no marker, and nothing about the secret channel or its messages.
async function drain(): Promise<void> {
  const ids = new Set([secret.channel, ...messageIds()].filter(Boolean));
  for (const q of queues) {
    const res = await q.client.get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true });
    if (q.who === 'ghost') {
      // Subscribed until deactivated; from then on its credentials are refused.
      if (ghostGone) assert.equal(res.status, 401, res.text);
      continue;
    }
    assert.equal(res.status, 200, res.text);
    for (const e of res.body.events as Record<string, any>[]) {
      const mentions = [e.stream_id, e.message_id, e.message?.id, ...(e.message_ids ?? []), ...(e.messages ?? []), ...(e.stream_ids ?? []),
        ...(e.subscriptions ?? []).map((s: { stream_id?: number } | number) => (typeof s === 'number' ? s : s.stream_id)), ...(e.streams ?? []).map((s: { stream_id: number }) => s.stream_id)];
      if (JSON.stringify(e).includes(MARKER) || mentions.some((m) => ids.has(m))) leaks.push(`${q.who}'s queue: ${JSON.stringify(e).slice(0, 300)}`);
      checkSecrets(q.who, `${q.who}'s queue`, JSON.stringify(e));
    }
    if (res.body.events.length) q.last = res.body.events.at(-1).id;
  }
}

async function ok(reply: Promise<Reply>): Promise<any> {
  const r = await reply;
  assert.equal(r.status, 200, r.text);
  await drain();
  return r.body;
}

test('the secrets of a private channel reach nobody without access', async () => {
  const iago = server.as('iago');
  const cordelia = server.as('cordelia');
  const ghostId = (await ok(ghost.get('/users/me'))).user_id;
  for (const [who, client] of Object.entries(outsiders)) {
    if (who === 'anonymous') continue;
    for (const params of [{ all_public_streams: true }, { narrow: [['is', 'dm']] }, {}]) {
      const reg = await client.post('/register', { fetch_event_types: [], ...params });
      assert.equal(reg.status, 200, reg.text);
      queues.push({ who, client, id: reg.body.queue_id, last: reg.body.last_event_id });
    }
  }

  // Fillers, so that the secret ids are told apart from user ids and from each other.
  await ok(server.as('hamlet').post('/users/me/subscriptions', { subscriptions: Array.from({ length: 10 }, (_, i) => ({ name: `filler ${i}` })) }));
  for (let i = 0; i < 30; i++) await ok(server.as('hamlet').post('/messages', { type: 'stream', to: 'filler 0', topic: 'filler', content: `filler ${i}` }));

  // The channel, with the ghost subscribed and then deactivated.
  secret.channelName = `Secret ${MARKER}`;
  await ok(iago.post('/users/me/subscriptions', {
    subscriptions: [{ name: secret.channelName, description: `about ${MARKER}` }], invite_only: true,
    principals: [server.users.iago.id, server.users.cordelia.id, ghostId],
  }));
  secret.channel = (await ok(iago.get('/get_stream_id', { stream: secret.channelName }))).stream_id;
  await ok(iago.delete(`/users/${ghostId}`));
  ghostGone = true;
  secret.topic = `topic ${MARKER}`;
  const send = (content: string, topic = secret.topic) => ok(cordelia.post('/messages', { type: 'stream', to: secret.channel, topic, content }));
  secret.message = (await send(`hello ${MARKER}`)).id;
  await ok(iago.post(`/messages/${secret.message}/reactions`, { emoji_name: 'octopus' }));
  await ok(cordelia.patch(`/messages/${secret.message}`, { content: `edited ${MARKER} again` }));
  await ok(iago.patch(`/messages/${secret.message}`, { topic: `moved ${MARKER}`, propagate_mode: 'change_all' }));
  secret.topic = `moved ${MARKER}`;
  await ok(cordelia.post('/messages/flags', { messages: [secret.message], op: 'add', flag: 'starred' }));
  await ok(cordelia.post('/typing', { type: 'stream', stream_id: secret.channel, topic: secret.topic, op: 'start' }));
  await ok(cordelia.post(`/messages/${secret.message}/typing`, { op: 'start' }));
  await ok(iago.patch(`/streams/${secret.channel}`, { description: `still about ${MARKER}`, new_name: `Secret ${MARKER} two` }));
  secret.channelName = `Secret ${MARKER} two`;
  await ok(iago.post('/user_topics', { stream_id: secret.channel, topic: secret.topic, visibility_policy: 1 }));
  await ok(iago.post('/users/me/subscriptions', { subscriptions: [{ name: secret.channelName }], principals: [server.users.desdemona.id] }));
  await ok(iago.delete('/users/me/subscriptions', { subscriptions: [secret.channelName], principals: [server.users.desdemona.id] }));
  secret.deleted = (await send(`doomed ${MARKER}`)).id;
  await ok(cordelia.delete(`/messages/${secret.deleted}`));
  secret.draft = (await ok(cordelia.post('/drafts', { drafts: [{ type: 'stream', to: [secret.channel], topic: secret.topic, content: `draft ${MARKER}`, timestamp: 1_700_000_000 }] }))).ids[0];
  secret.scheduled = (await ok(cordelia.post('/scheduled_messages', {
    type: 'stream', to: secret.channel, topic: secret.topic, content: `later ${MARKER}`, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
  }))).scheduled_message_id;
  secret.dm = (await ok(cordelia.post('/messages', { type: 'direct', to: [server.users.iago.id], content: `between us ${MARKER}` }))).id;
  await ok(iago.post('/users/me/status', { status_text: 'public status' }));
  // A file in the secret channel, its name and contents the marker.
  secret.file = await uploaded(server, 'cordelia', `${MARKER}.txt`, `contents ${MARKER}`);
  await drain();
  secret.fileMessage = (await send(`[the notes](${secret.file})`)).id;
  secret.attachment = ((await ok(cordelia.get('/attachments'))).attachments as { id: number; path_id: string }[]).find((a) => secret.file.endsWith(a.path_id))!.id;
  await writeUserSecrets();

  const inTheFuture = Math.floor(Date.now() / 1000) + 3600;
  const routes = ((await server.anon().get('/api/v1/openapi.json')).body.paths) as Record<string, Record<string, unknown>>;
  for (const [who, client] of Object.entries(outsiders)) {
    const me = who === 'anonymous' ? null : (await client.get('/users/me')).body.user_id;
    const pathValues: Record<string, string> = {
      stream_id: String(secret.channel), message_id: String(secret.message), draft_id: String(secret.draft),
      scheduled_message_id: String(secret.scheduled), user_id: String(server.users.cordelia.id), key: MARKER,
    };
    for (const [path, methods] of Object.entries(routes)) {
      if (!methods.get || path.includes('emoji/images')) continue;
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name] ?? '1');
      const decoy = path.replace(/\{(\w+)\}/g, (_, name: string) => (SECRET_PATH_PARAMS.has(name) ? String(DECOY_ID) : pathValues[name] ?? '1'));
      await probe(who, client, 'GET', filled, {
        include_all: true, include_public: true, include_subscribed: true, include_web_public: true, include_default: true,
        include_subscribers: true, include_can_access_content: true, include_archived: true, include_deactivated_groups: true,
        client_gravatar: false, apply_markdown: true, allow_empty_topic_name: true,
      }, decoy);
      if (path.includes('{message_id}')) await probe(who, client, 'GET', path.replace('{message_id}', String(secret.dm)), {}, path.replace('{message_id}', String(DECOY_ID)));
    }
    await probe(who, client, 'GET', '/get_stream_id', { stream: secret.channelName });
    // The file at its address and through the temporary-URL endpoint; the hidden address by every lookup.
    await probe(who, client, 'GET', secret.file);
    await probe(who, client, 'GET', `/api/v1${secret.file}`);
    for (const path of [`/users/${HIDDEN_EMAIL}`, `/users/${HIDDEN_EMAIL}/presence`, `/avatar/${HIDDEN_EMAIL}`]) await probe(who, client, 'GET', path);
    await probe(who, client, 'POST', '/reminders', { message_id: secret.message, scheduled_delivery_timestamp: inTheFuture });
    const narrows: unknown[][] = [
      [], [['channel', secret.channelName]], [['channel', secret.channel]], [['stream', secret.channel], ['topic', secret.topic]],
      [['search', MARKER]], [['channels', 'public']], [['channels', 'web-public']], [['is', 'starred']], [['is', 'dm']], [['dm', server.users.iago.id]],
      [['sender', server.users.cordelia.id]], [['id', secret.message]], [['near', secret.message]], [['id', secret.dm]], [['in', 'all']],
      [['topic', secret.topic]], [['is', 'resolved']], [['has', 'reaction']], [['is', 'unread']], [['with', secret.message]],
    ];
    for (const narrow of narrows) {
      await probe(who, client, 'GET', '/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
      await probe(who, client, 'GET', '/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow });
      const around = await client.get('/messages', { anchor: secret.message, num_before: 5, num_after: 5, narrow });
      if (!JSON.stringify(narrow).includes(MARKER) && around.text.includes(MARKER)) leaks.push(`${who}: GET /messages around the secret message: ${around.text.slice(0, 300)}`);
      await probe(who, client, 'GET', '/messages/matches_narrow', { msg_ids: [secret.message, secret.dm, secret.deleted], narrow });
      await probe(who, client, 'POST', '/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow, op: 'add', flag: 'read' });
    }
    await probe(who, client, 'POST', '/register', { include_subscribers: true, all_public_streams: true, client_capabilities: { user_list_incomplete: false } });
    await probe(who, client, 'POST', '/register', { narrow: [['channel', secret.channelName]] });
    await probe(who, client, 'POST', '/messages/flags', { messages: [secret.message, secret.dm], op: 'add', flag: 'read' });
    await probe(who, client, 'POST', `/messages/${secret.message}/reactions`, { emoji_name: 'octopus' }, `/messages/${DECOY_ID}/reactions`);
    await probe(who, client, 'POST', `/messages/${secret.message}/report`, { report_type: 'spam' }, `/messages/${DECOY_ID}/report`);
    await probe(who, client, 'POST', '/user_topics', { stream_id: secret.channel, topic: secret.topic, visibility_policy: 1 });
    await probe(who, client, 'PATCH', `/users/me/subscriptions/${secret.channel}`, { property: 'color', value: '#000000' }, `/users/me/subscriptions/${DECOY_ID}`);
    await probe(who, client, 'POST', '/typing', { type: 'stream', stream_id: secret.channel, topic: secret.topic, op: 'start' });
    await probe(who, client, 'POST', '/drafts', { drafts: [{ type: 'stream', to: [secret.channel], topic: 'x', content: 'x', timestamp: 1 }] });
    await probe(who, client, 'POST', '/messages', { type: 'stream', to: secret.channel, topic: 'x', content: 'x' });
    await probe(who, client, 'PATCH', `/messages/${secret.message}`, { content: 'x' }, `/messages/${DECOY_ID}`);
    await probe(who, client, 'DELETE', `/messages/${secret.message}`, {}, `/messages/${DECOY_ID}`);
    // Someone else's draft and scheduled message are answered as missing ones (writes last: a leak would change them).
    await probe(who, client, 'PATCH', `/drafts/${secret.draft}`, { draft: { type: '', to: [], topic: '', content: 'x', timestamp: 1 } }, `/drafts/${DECOY_ID}`);
    await probe(who, client, 'PATCH', `/scheduled_messages/${secret.scheduled}`, { content: 'x' }, `/scheduled_messages/${DECOY_ID}`);
    await probe(who, client, 'DELETE', `/drafts/${secret.draft}`, {}, `/drafts/${DECOY_ID}`);
    await probe(who, client, 'DELETE', `/scheduled_messages/${secret.scheduled}`, {}, `/scheduled_messages/${DECOY_ID}`);
    await probe(who, client, 'DELETE', `/attachments/${secret.attachment}`, {}, `/attachments/${DECOY_ID}`);
    if (me !== null && who !== 'lear') {
      // Subscribing by name must not let them in (in another organization the name is simply free) (the reference server says the channel cannot be accessed).
      const joined = await client.post('/users/me/subscriptions', { subscriptions: [{ name: secret.channelName }] });
      if (joined.status === 200 && (await client.get(`/messages/${secret.message}`)).status === 200) leaks.push(`${who} subscribed to the secret channel by name`);
      if (joined.status !== 200 && joined.text.replaceAll(secret.channelName, '') .includes(MARKER)) leaks.push(`${who}: ${joined.text}`);
    }
    await drain();
  }
  // The insiders did see everything, so the probes above could have found it.
  const inside = await server.as('cordelia').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['search', MARKER]] });
  assert.ok(inside.text.includes(MARKER), inside.text);
  assert.ok((await cordelia.get(secret.file, {}, { root: true })).text.includes(MARKER));
  assert.ok((await cordelia.get(`/api/v1${secret.file}`, {}, { root: true })).body.url);
  for (const path of ['/users/me/alert_words', '/reminders']) assert.ok((await cordelia.get(path)).text.includes(MARKER), path);
  assert.ok((await cordelia.post('/register', { fetch_event_types: ['realm_bot'] })).text.includes(MARKER), "the webhook's URL");
  assert.equal((await iago.get(`/users/${HIDDEN_EMAIL}`)).status, 200, 'administrators see the hidden address');
  assert.ok((await server.as('hamlet').get('/realm/profile_fields')).text.includes(ORG_MARKER));
  assert.ok((await iago.get('/invites')).text.includes(keys[1]));
  leaks.forEach((l) => console.error(`LEAK ${l}`));
  assert.equal(leaks.length, 0, `${leaks.length} leaks`);
});

// What one user keeps to themselves, a user whose address only administrators see, and what the organization
// shares within itself.
async function writeUserSecrets(): Promise<void> {
  const [iago, cordelia] = [server.as('iago'), server.as('cordelia')];
  await ok(cordelia.post('/users/me/alert_words', { alert_words: [MARKER] }));
  await ok(cordelia.post('/reminders', { message_id: secret.message, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600, note: `note ${MARKER}` }));
  const hook = await ok(cordelia.post('/bots', { full_name: `Hook ${ORG_MARKER}`, short_name: 'hook', bot_type: 3, payload_url: `https://hooks.example.com/${MARKER}` }));
  keys.push(hook.api_key);
  const link = (await ok(iago.post('/invites/multiuse', {}))).invite_link as string;
  keys.push(/\/join\/([^/]+)\//.exec(link)![1]);

  await ok(iago.patch('/realm/user_settings_defaults', { email_address_visibility: 3 }));
  await ok(iago.post('/users', { email: HIDDEN_EMAIL, password: PASSWORD, full_name: 'Hidden Address' }));
  await ok(iago.patch('/realm/user_settings_defaults', { email_address_visibility: 1 }));
  const apiKey = (await ok(server.anon().post('/fetch_api_key', { username: HIDDEN_EMAIL, password: PASSWORD }))).api_key;
  await ok(new Client(server.url, { email: HIDDEN_EMAIL, apiKey }).post('/users/me/presence', { status: 'active' }));

  const field = (await ok(iago.post('/realm/profile_fields', { field_type: 1, name: `Field ${ORG_MARKER}` }))).id;
  await ok(cordelia.patch('/users/me/profile_data', { data: [{ id: field, value: `value ${ORG_MARKER}` }] }));
  await ok(server.as('desdemona').post('/realm/domains', { domain: `${ORG_MARKER}.example.org` }));
}
