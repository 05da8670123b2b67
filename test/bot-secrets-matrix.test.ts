// The permission matrix's column "secret shown to a lower role": every answer and event that can carry a bot's
// API key or outgoing-webhook token — the register (realm_bots and everything else), GET /bots, the POST /bots
// answer, key regeneration, realm_bot add and update events, fetch_api_key, user lists — for callers of every
// role (owner, administrator, moderator, member, guest, and bots) against bots owned by each role and bots whose
// role is above their owner's. Nobody may receive a secret of a bot unless the reference server would show it
// to them (its owner, or an administrator; never to a bot) and the bot's role is not above theirs.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, PASSWORD, type SeedName, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { Client, type Reply } from './helpers/client.js';

let server: TestServer;
after(() => server?.close());

type Human = Exclude<SeedName, 'bot' | 'lear'>;
const HUMANS: Human[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius'];
interface Caller { name: string; id: number; role: number; isBot: boolean; client: Client }
interface Bot { name: string; id: number; ownerId: number; role: number }

const callers: Caller[] = [];
const bots = new Map<number, Bot>();
// Every secret seen so far, and whose it is.
const secretOf = new Map<string, number>();

// The rule under test, written from the issue: the reference server's audience (the bot's owner or an
// administrator, people only), and never a bot whose role is above the caller's (100 owner … 600 guest).
function mayHold(caller: Caller, bot: Bot): boolean {
  if (caller.isBot) return false;
  return (bot.ownerId === caller.id || caller.role <= 200) && caller.role <= bot.role;
}

// The owner may hold every secret: her view is the truth the others are checked against.
async function learnSecrets(): Promise<void> {
  const reg = assertSuccess(await server.as('desdemona').post('/register', { fetch_event_types: ['realm_bot'] }));
  for (const b of reg.realm_bots) {
    if (!bots.has(b.user_id)) continue;
    assert.match(b.api_key, /^\S{32}$/, 'the owner sees every key');
    secretOf.set(b.api_key, b.user_id);
    for (const s of b.services) if (s.token) secretOf.set(s.token, b.user_id);
  }
}

const failures: string[] = [];
function scan(caller: Caller, where: string, text: string): void {
  for (const [secret, botId] of secretOf) {
    if (text.includes(secret) && !mayHold(caller, bots.get(botId)!)) failures.push(`${caller.name} got a secret of ${bots.get(botId)!.name} in ${where}`);
  }
}
const scanReply = (caller: Caller, where: string, reply: Reply) => scan(caller, where, reply.text);

async function makeBot(name: string, by: Human, role?: number, ownerId?: number): Promise<Bot> {
  const res = assertSuccess(await server.as(by).post('/bots', {
    full_name: `Matrix ${name}`, short_name: name, bot_type: 3, payload_url: JSON.stringify(`https://hooks.example.com/${name}`),
  }));
  const bot: Bot = { name, id: res.user_id, ownerId: server.users[by].id, role: 400 };
  bots.set(bot.id, bot);
  if (role !== undefined) {
    assertSuccess(await server.as('desdemona').patch(`/bots/${bot.id}`, { role }));
    bot.role = role;
  }
  if (ownerId !== undefined) {
    assertSuccess(await server.as('desdemona').patch(`/bots/${bot.id}`, { bot_owner_id: ownerId }));
    bot.ownerId = ownerId;
  }
  return bot;
}

// Open event queues for every caller, an action, then what each queue received, scanned.
let queues: { caller: Caller; queueId: string; last: number }[] = [];
async function drainEvents(action: string): Promise<void> {
  await learnSecrets();
  for (const q of queues) {
    const res = await q.caller.client.get('/events', { queue_id: q.queueId, last_event_id: q.last, dont_block: true });
    assert.equal(res.status, 200, res.text);
    if (res.body.events.length) q.last = res.body.events.at(-1).id;
    scan(q.caller, `events after ${action}`, res.text);
  }
}

before(async () => {
  server = await startTestServer();
  for (const name of HUMANS) {
    const u = server.users[name];
    callers.push({ name, id: u.id, role: u.role, isBot: false, client: server.as(name) });
  }
  const u = (n: Human) => server.users[n].id;
  await makeBot('byowner', 'desdemona');
  await makeBot('byadmin', 'iago');
  await makeBot('bymoderator', 'shiva');
  await makeBot('bymember', 'hamlet');
  await makeBot('byguest', 'hamlet', undefined, u('polonius'));
  await makeBot('ownerrole', 'desdemona', 100);
  await makeBot('ownerroleofadmin', 'iago', 100);
  await makeBot('adminroleofmember', 'hamlet', 200);
  await makeBot('ownerroleofmember', 'cordelia', 100);
  await makeBot('moderatorroleofmember', 'cordelia', 300);
  // Two bots as callers: the seeded member bot, and a bot whose role is administrator.
  callers.push({ name: 'bot', id: server.users.bot.id, role: 400, isBot: true, client: server.as('bot') });
  const agent = assertSuccess(await server.as('desdemona').post('/bots', { full_name: 'Matrix agent', short_name: 'agent' }));
  assertSuccess(await server.as('desdemona').patch(`/bots/${agent.user_id}`, { role: 200 }));
  const { bots: mine } = assertSuccess(await server.as('desdemona').get('/bots'));
  const record = mine.find((b: { full_name: string }) => b.full_name === 'Matrix agent');
  callers.push({ name: 'admin bot', id: agent.user_id, role: 200, isBot: true, client: new Client(server.url, { email: record.username, apiKey: record.api_key }) });
  bots.set(agent.user_id, { name: 'agent', id: agent.user_id, ownerId: server.users.desdemona.id, role: 200 });
  await learnSecrets();
});

test('register, GET /bots and fetch_api_key show each caller only the secrets they may hold', async () => {
  for (const c of callers) {
    const full = await c.client.post('/register', {});
    assert.equal(full.status, 200, full.text);
    scanReply(c, 'the register', full);
    const blocks = assertSuccess(await c.client.post('/register', { fetch_event_types: ['realm_bot'] }));
    for (const b of bots.values()) {
      const listed = blocks.realm_bots.find((r: { user_id: number }) => r.user_id === b.id);
      const administers = !c.isBot && (b.ownerId === c.id || c.role <= 200);
      assert.equal(Boolean(listed), administers, `${c.name} lists ${b.name}`);
      if (!listed) continue;
      assert.equal(listed.api_key === '', !mayHold(c, b), `${c.name}'s realm_bots entry of ${b.name}: ${listed.api_key}`);
      if (listed.services.length) assert.equal(listed.services[0].token === '', !mayHold(c, b), `${c.name}'s token of ${b.name}`);
    }
    scanReply(c, 'GET /bots', await c.client.get('/bots'));
    scanReply(c, 'GET /users', await c.client.get('/users'));
    for (const b of bots.values()) scanReply(c, `GET /users/${b.name}`, await c.client.get(`/users/${b.id}`));
    if (!c.isBot) {
      const own = assertSuccess(await new Client(server.url).post('/fetch_api_key', { username: server.users[c.name as Human].email, password: PASSWORD }));
      assert.equal(own.api_key, server.users[c.name as Human].apiKey);
    }
  }
  assert.deepEqual(failures, []);
});

test('POST /bots answers, regeneration and realm_bot events show each caller only the secrets they may hold', async () => {
  queues = [];
  for (const c of callers) {
    const reg = assertSuccess(await c.client.post('/register', { event_types: ['realm_bot', 'realm_user'], fetch_event_types: [] }));
    queues.push({ caller: c, queueId: reg.queue_id, last: reg.last_event_id });
  }
  const byName = (n: string) => [...bots.values()].find((b) => b.name === n)!;
  const caller = (n: string) => callers.find((c) => c.name === n)!;

  // The administrator bot keeps its key: it is one of the callers.
  const others = () => [...bots.values()].filter((b) => b.name !== 'agent');
  for (const b of others()) assertSuccess(await server.as('desdemona').post(`/bots/${b.id}/api_key/regenerate`));
  await drainEvents('the owner regenerated every key');

  for (const b of others()) {
    assertSuccess(await server.as('desdemona').patch(`/bots/${b.id}`, { service_payload_url: JSON.stringify(`https://hooks.example.com/${b.name}/v2`) }));
  }
  await drainEvents('the owner changed every outgoing webhook');

  for (const who of ['iago', 'shiva', 'hamlet'] as const) {
    const res = await server.as(who).post('/bots', { full_name: `Matrix new ${who}`, short_name: `new${who}`, bot_type: 3, payload_url: JSON.stringify('https://hooks.example.com/new') });
    const body = assertSuccess(res);
    bots.set(body.user_id, { name: `new${who}`, id: body.user_id, ownerId: server.users[who].id, role: 400 });
    await learnSecrets();
    scanReply(caller(who), 'the POST /bots answer', res);
    assert.match(body.api_key, /^\S{32}$/);
    await drainEvents(`${who} created a bot`);
  }

  // New owners below the bot's role get it listed, without its secrets.
  for (const [bot, by, to] of [['adminroleofmember', 'iago', 'shiva'], ['ownerroleofadmin', 'desdemona', 'hamlet'], ['bymember', 'iago', 'polonius']] as const) {
    assertSuccess(await server.as(by).patch(`/bots/${byName(bot).id}`, { bot_owner_id: server.users[to].id }));
    byName(bot).ownerId = server.users[to].id;
    await drainEvents(`${by} gave ${bot} to ${to}`);
  }
  // Raised roles: those who held the secrets and may no longer hear of new ones only.
  for (const [bot, by, role] of [['bymoderator', 'iago', 200], ['byadmin', 'desdemona', 100], ['newhamlet', 'iago', 300]] as const) {
    assertSuccess(await server.as(by).patch(`/bots/${byName(bot).id}`, { role }));
    byName(bot).role = role;
    await drainEvents(`${by} raised ${bot} to ${role}`);
  }

  // Each caller tries to replace each key: allowed exactly where they may hold it.
  for (const c of callers) {
    for (const b of others()) {
      const res = await c.client.post(`/bots/${b.id}/api_key/regenerate`);
      assert.equal(res.status === 200, mayHold(c, b), `${c.name} regenerating ${b.name}: ${res.status} ${res.text}`);
      if (res.status === 200) secretOf.set(res.body.api_key, b.id);
      scanReply(c, `regenerating ${b.name}`, res);
    }
    await drainEvents(`${c.name} regenerated what they could`);
  }
  assert.deepEqual(failures, []);
});
