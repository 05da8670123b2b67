// Joining through an invitation link over HTTP: the HTML form, the account it creates (role, channels, groups,
// welcome messages, events to others), validation errors, and links that cannot be used.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Client, send, type ParamValue, type Reply } from './helpers/client.js';
import { eventually, Listeners } from './helpers/events.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';

let server: TestServer;
let groups: Map<string, number>;
let denmark: number; // public; hamlet and cordelia subscribed
let verona: number; // private; iago subscribed
let lobby: number; // a default channel
let players: number; // a user group made by iago
before(async () => {
  server = await startTestServer();
  const res = await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] });
  groups = new Map(res.body.realm_user_groups.map((g: { name: string; id: number }) => [g.name, g.id]));
  denmark = await createChannel(server, 'hamlet', ['hamlet', 'cordelia']);
  verona = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  lobby = await createChannel(server, 'iago', ['iago'], { is_default_stream: true });
  players = assertSuccess(await server.as('iago').post('/user_groups/create', { name: 'Players', description: '', members: [server.users.iago.id] })).group_id;
});
after(() => server.close());

let n = 0;
const newEmail = () => `newcomer${++n}@zulip.example.com`;

async function link(as: SeedName, params: Record<string, ParamValue> = {}): Promise<string> {
  return assertSuccess(await server.as(as).post('/invites/multiuse', params)).invite_link;
}

// Pages are reached like a browser does: the link's own address (the organization is picked by its host).
function page(method: 'GET' | 'POST', url: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const body = form && new URLSearchParams(form).toString();
  return send(method, new URL(url), { ...headers, ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, body);
}

function isPage(res: Reply, status: number): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(res.text, /^<!DOCTYPE html>/);
  assert.doesNotMatch(res.text, /<script/i);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'same-origin');
}

// A newcomer lands in the web app, logged in (a session cookie and a redirect to /).
function landed(res: Reply): void {
  assert.equal(res.status, 303, res.text);
  assert.equal(res.headers.location, '/');
  assert.match(String(res.headers['set-cookie']), /sessionid=[A-Za-z0-9]{40}/);
}

async function join(url: string, form: Record<string, string>): Promise<{ res: Reply; client: Client; id: number }> {
  const res = await page('POST', url, form);
  landed(res);
  const apiKey = assertSuccess(await server.anon().post('/fetch_api_key', { username: form.email, password: form.password })).api_key;
  const client = new Client(server.url, { email: form.email, apiKey });
  const me = assertSuccess(await client.get('/users/me'));
  return { res, client, id: me.user_id };
}

async function welcomeMessages(client: Client): Promise<Record<string, any>[]> {
  const res = await client.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [['is', 'dm']], apply_markdown: false });
  return assertSuccess(res).messages;
}

describe('joining through a link', () => {
  test('end to end: form, account with role, channels, groups, welcome, and the events others get', async () => {
    const url = await link('iago', {
      invite_as: 300, stream_ids: [denmark, verona], group_ids: [players], include_realm_default_subscriptions: true,
      welcome_message_custom_text: 'Glad to have you, **friend**!',
    });
    const form = await page('GET', url);
    isPage(form, 200);
    assert.match(form.text, /<h1>Join Zulip Dev<\/h1>/);
    assert.match(form.text, /invited to join as a moderator/);
    for (const field of ['full_name', 'email', 'password']) assert.match(form.text, new RegExp(`name="${field}"`));
    assert.match(form.text, /<form method="post"/);

    const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago', 'polonius', 'shiva']);
    const email = newEmail();
    const { client, id } = await join(url, { full_name: 'Ophelia <Polonius & daughter', email, password: 'a nunnery, go' });

    const me = assertSuccess(await client.get('/users/me'));
    assert.deepEqual([me.email, me.full_name, me.role, me.is_bot], [email, 'Ophelia <Polonius & daughter', 300, false]);
    // The password works too.
    const fetched = assertSuccess(await server.anon().post('/fetch_api_key', { username: email, password: 'a nunnery, go' }));
    assert.equal(fetched.user_id, id);

    const subs = assertSuccess(await client.get('/users/me/subscriptions')).subscriptions.map((s: { stream_id: number }) => s.stream_id).sort();
    assert.deepEqual(subs, [denmark, verona, lobby].sort((a, b) => a - b));
    const members = assertSuccess(await server.as('iago').get(`/user_groups/${players}/members`)).members;
    assert.ok(members.includes(id));

    const welcome = await welcomeMessages(client);
    assert.equal(welcome.length, 2);
    assert.ok(welcome.every((m) => m.sender_full_name === 'Welcome Bot' && m.sender_email.startsWith('welcome-bot@') && m.type === 'private'));
    assert.match(welcome[0].content, /^Hello, and welcome to Zulip Dev!/);
    assert.equal(welcome[1].content, 'Glad to have you, **friend**!');
    assert.ok(welcome.every((m) => !m.flags.includes('read')));

    // Everyone learns of the new user; the channels' audiences of the new subscriber; everyone of the group change.
    const hamlets = await eventually(async () => {
      const events = await l.take('hamlet');
      return events.length ? events : undefined;
    });
    for (const who of ['hamlet', 'cordelia', 'iago', 'polonius', 'shiva'] as const) {
      const events = who === 'hamlet' ? hamlets : await l.take(who);
      const added = events.filter((e) => e.type === 'realm_user' && e.op === 'add' && e.person.user_id === id);
      assert.equal(added.length, 1, `${who}: ${JSON.stringify(events)}`);
      assert.deepEqual([added[0].person.full_name, added[0].person.role], ['Ophelia <Polonius & daughter', 300]);
      const peers = events.filter((e) => e.type === 'subscription' && e.op === 'peer_add').map((e) => e.stream_ids[0]).sort();
      const expected = { hamlet: [denmark, lobby], cordelia: [denmark, lobby], iago: [denmark, verona, lobby], polonius: [], shiva: [denmark, lobby] }[who];
      assert.deepEqual(peers, expected.sort((a, b) => a - b), who);
      for (const e of events.filter((e) => e.type === 'subscription' && e.op === 'peer_add')) assert.deepEqual(e.user_ids, [id]);
      const grouped = events.filter((e) => e.type === 'user_group' && e.op === 'add_members');
      assert.deepEqual(grouped.map((e) => [e.group_id, e.user_ids]), [[players, [id]]]);
    }
  });

  test('roles, default channels only when asked, and the welcome text: the link\'s, else the organization\'s, empty for none', async () => {
    assertSuccess(await server.as('iago').patch('/realm', { welcome_message_custom_text: 'The organization says hello.' }));
    const guest = await join(await link('iago', { invite_as: 600, stream_ids: [denmark] }), { full_name: 'Rosencrantz', email: newEmail(), password: 'guildenstern' });
    assert.equal(assertSuccess(await guest.client.get('/users/me')).role, 600);
    assert.deepEqual(assertSuccess(await guest.client.get('/users/me/subscriptions')).subscriptions.map((s: { stream_id: number }) => s.stream_id), [denmark]);
    assert.deepEqual((await welcomeMessages(guest.client)).map((m) => m.content).slice(1), ['The organization says hello.']);

    const quiet = await join(await link('iago', { welcome_message_custom_text: '' }), { full_name: 'Osric', email: newEmail(), password: 'a hit, a very palpable hit' });
    assert.equal((await welcomeMessages(quiet.client)).length, 1);
    assert.deepEqual(assertSuccess(await quiet.client.get('/users/me/subscriptions')).subscriptions, []);

    // A member's link cannot choose the text: the organization's is used.
    assertSuccess(await server.as('desdemona').patch('/realm', { create_multiuse_invite_group: { new: groups.get('role:members')! } }));
    const members = await link('hamlet', { welcome_message_custom_text: 'From Hamlet', include_realm_default_subscriptions: true });
    const joined = await join(members, { full_name: 'Horatio', email: newEmail(), password: 'more an antique Roman' });
    assert.equal(assertSuccess(await joined.client.get('/users/me')).role, 400);
    assert.deepEqual((await welcomeMessages(joined.client)).map((m) => m.content).slice(1), ['The organization says hello.']);
    assert.deepEqual(assertSuccess(await joined.client.get('/users/me/subscriptions')).subscriptions.map((s: { stream_id: number }) => s.stream_id), [lobby]);
    assertSuccess(await server.as('desdemona').patch('/realm', { create_multiuse_invite_group: { new: groups.get('role:administrators')! } }));
    assertSuccess(await server.as('iago').patch('/realm', { welcome_message_custom_text: '' }));

    // A link is reusable, and lasts 14400 minutes unless told otherwise.
    const reused = await link('iago');
    await join(reused, { full_name: 'Voltemand', email: newEmail(), password: 'ambassador' });
    await join(reused, { full_name: 'Cornelius', email: newEmail(), password: 'ambassador' });
    const listed = assertSuccess(await server.as('iago').get('/invites')).invites.find((i: { link_url: string }) => i.link_url === reused);
    assert.equal(listed.expiry_date - listed.invited, 14400 * 60);
  });

  test('a form filled in wrongly comes back with the message and the values, and creates nobody', async () => {
    const url = await link('iago');
    const count = async () => assertSuccess(await server.as('iago').get('/users')).members.length;
    const before = await count();
    const cases: [Record<string, string>, string][] = [
      [{ full_name: 'Yorick', email: 'not-an-email', password: 'alas poor' }, 'Invalid email &#39;not-an-email&#39;'],
      [{ full_name: 'Yorick', email: server.users.hamlet.email, password: 'alas poor' }, `Email &#39;${server.users.hamlet.email}&#39; already in use`],
      [{ full_name: 'Yorick', email: 'yorick@zulip.example.com', password: 'alas' }, 'The password is too weak.'],
      [{ full_name: '   ', email: 'yorick@zulip.example.com', password: 'alas poor' }, 'Name too short!'],
      [{ full_name: 'Y'.repeat(101), email: 'yorick@zulip.example.com', password: 'alas poor' }, 'Name too long!'],
      [{ full_name: 'Yorick *jester*', email: 'yorick@zulip.example.com', password: 'alas poor' }, 'Invalid characters in name!'],
      [{ email: 'yorick@zulip.example.com', password: 'alas poor' }, 'Name too short!'],
    ];
    for (const [form, message] of cases) {
      const res = await page('POST', url, form);
      isPage(res, 400);
      assert.ok(res.text.includes(`<p class="error" role="alert">${message}</p>`), `${message} not in ${res.text}`);
      assert.match(res.text, /name="password" type="password"/);
      assert.doesNotMatch(res.text, /alas poor/); // the password is never sent back
      if (form.full_name === 'Yorick') assert.match(res.text, /value="Yorick"/);
    }
    // Hostile values are shown escaped, never as markup.
    const evil = await page('POST', url, { full_name: '<script>alert(1)</script>', email: '"><script>alert(2)</script>', password: 'alas poor' });
    isPage(evil, 400);
    assert.match(evil.text, /value="&quot;&gt;&lt;script&gt;alert\(2\)&lt;\/script&gt;"/);
    assert.match(evil.text, /value="&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
    assert.equal(await count(), before);
  });

  test('a form sent from another site is refused', async () => {
    const url = await link('iago');
    const email = newEmail();
    const res = await page('POST', url, { full_name: 'Fortinbras', email, password: 'go, bid the soldiers shoot' }, { origin: 'http://attacker.example' });
    isPage(res, 403);
    assert.equal((await server.anon().post('/fetch_api_key', { username: email, password: 'go, bid the soldiers shoot' })).status, 401);
    // So is a form whose origin the browser hides.
    isPage(await page('POST', url, { full_name: 'Fortinbras', email, password: 'go, bid the soldiers shoot' }, { origin: 'null' }), 403);
    // The page's own origin is fine, as is a client that sends none.
    const own = await page('POST', url, { full_name: 'Fortinbras', email, password: 'go, bid the soldiers shoot' }, { origin: new URL(server.url).origin });
    landed(own);
    await join(url, { full_name: 'Fortinbras Jr', email: newEmail(), password: 'go, bid the soldiers shoot' });
  });
});

describe('links that cannot be used explain themselves', () => {
  test('unknown, revoked and expired links', async () => {
    const missing = await page('GET', `${server.url}/join/nosuchkeyatallreally1234/`);
    isPage(missing, 404);
    assert.match(missing.text, /does not exist/);

    const revoked = await link('iago');
    const id = assertSuccess(await server.as('iago').get('/invites')).invites.find((i: { link_url: string }) => i.link_url === revoked).id;
    assertSuccess(await server.as('iago').delete(`/invites/multiuse/${id}`));
    for (const res of [await page('GET', revoked), await page('POST', revoked, { full_name: 'Barnardo', email: newEmail(), password: 'who is there' })]) {
      isPage(res, 410);
      assert.match(res.text, /has been revoked/);
    }

    const expired = await link('iago', { invite_expires_in_minutes: 5 });
    const expiredId = assertSuccess(await server.as('iago').get('/invites')).invites.find((i: { link_url: string }) => i.link_url === expired).id;
    await withDb(server, (db) => db.updateTable('multiuse_invites').set({ expiry: Math.floor(Date.now() / 1000) - 1 }).where('id', '=', expiredId).execute());
    const email = newEmail();
    for (const res of [await page('GET', expired), await page('POST', expired, { full_name: 'Francisco', email, password: 'bitter cold' })]) {
      isPage(res, 410);
      assert.match(res.text, /has expired/);
    }
    assert.equal((await server.anon().post('/fetch_api_key', { username: email, password: 'bitter cold' })).status, 401);
  });

  test('a link works only on its own organization, and not once that organization is deactivated', async () => {
    const lears = assertSuccess(await server.as('lear').post('/invites/multiuse')).invite_link;
    const host = `lear.${new URL(server.url).host}`;
    assert.ok(lears.startsWith(`http://${host}/join/`));
    const key = /\/join\/([^/]+)\//.exec(lears)![1];
    const path = new URL(`/join/${key}/`, server.url);
    // On the default organization's address the key names nothing.
    isPage(await send('GET', path, {}), 404);
    isPage(await send('GET', path, { host }), 200);

    const setDeactivated = (deactivated: number) =>
      withDb(server, (db) => db.updateTable('realms').set({ deactivated }).where('string_id', '=', 'lear').execute());
    await setDeactivated(1);
    try {
      const res = await send('GET', path, { host });
      isPage(res, 403);
      assert.match(res.text, /deactivated/);
    } finally {
      await setDeactivated(0);
    }
  });
});
