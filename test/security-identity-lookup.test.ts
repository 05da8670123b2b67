// Permission-matrix column "colliding identity", lookups: every parameter or narrow operand that takes an e-mail
// address treats a real address its owner hides from the caller exactly like an address nobody has, so that no
// answer confirms it. Those allowed to see the address (and everyone, for the placeholder address) find the user.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { send, type Reply } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { channelName, createChannel, sendDm, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let hidden: string; // hamlet's real address, visible to administrators only
let dm: number; // a direct message from hamlet to cordelia
let channel: string;
const UNKNOWN = 'nobody.here@zulip.example.com';
before(async () => {
  server = await startTestServer();
  hidden = server.users.hamlet.email;
  const id = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia']);
  channel = await channelName(server, id);
  await sendToChannel(server, 'hamlet', id, 'greetings', 'hello from hamlet');
  dm = await sendDm(server, 'hamlet', ['cordelia'], 'psst');
  assertSuccess(await server.as('hamlet').patch('/settings', { email_address_visibility: 3 }));
});
after(() => server?.close());

interface Lookup {
  name: string;
  run: (who: SeedName, email: string) => Promise<Reply>;
}

const narrowOf = (operator: string, email: string) => [{ operator, operand: email }];
const window = { anchor: 'newest', num_before: 10, num_after: 0 };

const LOOKUPS: Lookup[] = [
  { name: 'GET /users/{email}', run: (who, e) => server.as(who).get(`/users/${encodeURIComponent(e)}`) },
  { name: 'GET /users/{email}/presence', run: (who, e) => server.as(who).get(`/users/${encodeURIComponent(e)}/presence`) },
  ...['sender', 'dm', 'pm-with', 'dm-including', 'group-pm-with'].flatMap((operator): Lookup[] => [
    { name: `GET /messages narrow ${operator}`, run: (who, e) => server.as(who).get('/messages', { ...window, narrow: narrowOf(operator, e) }) },
    { name: `GET /messages legacy narrow ${operator}`, run: (who, e) => server.as(who).get('/messages', { ...window, narrow: [[operator, e]] }) },
    { name: `GET /messages/matches_narrow ${operator}`, run: (who, e) => server.as(who).get('/messages/matches_narrow', { msg_ids: [dm], narrow: narrowOf(operator, e) }) },
    { name: `POST /messages/flags/narrow ${operator}`, run: (who, e) => server.as(who).post('/messages/flags/narrow', { ...window, include_anchor: true, op: 'add', flag: 'starred', narrow: narrowOf(operator, e) }) },
  ]),
  { name: 'GET /messages narrow dm (list)', run: (who, e) => server.as(who).get('/messages', { ...window, narrow: [{ operator: 'dm', operand: [e] }] }) },
  { name: 'POST /messages to', run: (who, e) => server.as(who).post('/messages', { type: 'private', to: JSON.stringify([e]), content: 'hi' }) },
  { name: 'POST /messages to (comma list)', run: (who, e) => server.as(who).post('/messages', { type: 'private', to: e, content: 'hi' }) },
  { name: 'POST /scheduled_messages to', run: (who, e) => server.as(who).post('/scheduled_messages', { type: 'direct', to: JSON.stringify([e]), content: 'later', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 }) },
  { name: 'POST /users/me/subscriptions principals', run: (who, e) => server.as(who).post('/users/me/subscriptions', { subscriptions: [{ name: channel }], principals: [e] }) },
  { name: 'DELETE /users/me/subscriptions principals', run: (who, e) => server.as(who).delete('/users/me/subscriptions', { subscriptions: [channel], principals: [e] }) },
  // Asking to move to an address is answered alike; the confirmation, which only the address's owner can reach,
  // refuses a taken one (security-identity.test.ts).
  { name: 'PATCH /settings email', run: (who, e) => server.as(who).patch('/settings', { email: e }) },
];

// The reply with the address written out as a token, so that replies about two addresses compare.
const shape = (res: Reply, email: string) => ({ status: res.status, body: JSON.parse(res.text.split(email).join('<address>')) });

test('a hidden address behaves exactly like an unknown one, wherever an e-mail is accepted', async () => {
  for (const lookup of LOOKUPS) {
    const asUnknown = shape(await lookup.run('cordelia', UNKNOWN), UNKNOWN);
    const asHidden = shape(await lookup.run('cordelia', hidden), hidden);
    assert.deepEqual(asHidden, asUnknown, `${lookup.name} tells a hidden address from an unknown one`);
  }
});

test('the avatar of a hidden address is the generated image of the text, as for an unknown one', async () => {
  for (const email of [hidden, UNKNOWN]) {
    const res = await send('GET', new URL(`/avatar/${encodeURIComponent(email)}`, server.url), server.as('cordelia').headers());
    assert.equal(res.status, 302, res.text);
    const hash = crypto.createHash('md5').update(email.toLowerCase()).digest('hex');
    assert.match(String(res.headers.location), new RegExp(`/avatar/${hash}\\?d=identicon&version=1$`), email);
  }
});

test('those who may see the address, and everyone with the placeholder address, find the user', async () => {
  const placeholder = `user${server.users.hamlet.id}@parlance.invalid`;
  for (const [who, email] of [['iago', hidden], ['cordelia', placeholder], ['hamlet', hidden]] as [SeedName, string][]) {
    const user = assertSuccess(await server.as(who).get(`/users/${encodeURIComponent(email)}`)).user;
    assert.equal(user.user_id, server.users.hamlet.id, `${who} by ${email}`);
    if (who === 'hamlet') continue;
    const sent = assertSuccess(await server.as(who).get('/messages', { ...window, narrow: [{ operator: 'sender', operand: email }] })).messages;
    assert.ok(sent.length > 0 && sent.every((m: { sender_id: number }) => m.sender_id === server.users.hamlet.id), `${who} narrows by ${email}`);
  }
});
