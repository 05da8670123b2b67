// What a departed user's authority may still do: invitation links die with their creator's right to make them
// (deactivation, a lower role, a link's role above the creator's new one), a link adds newcomers only to the
// channels and groups its creator may still add them to, and a departing owner's bots go with them whatever
// the bots' roles.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Client, send, type ParamValue, type Reply } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { createChannel } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';

let server: TestServer;
let groups: Map<string, number>;
before(async () => {
  server = await startTestServer();
  const res = await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] });
  groups = new Map(res.body.realm_user_groups.map((g: { name: string; id: number }) => [g.name, g.id]));
});
after(() => server?.close());

let n = 0;
const link = async (as: SeedName, params: Record<string, ParamValue> = {}) => assertSuccess(await server.as(as).post('/invites/multiuse', params)).invite_link as string;
const page = (method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<Reply> => {
  const body = form && new URLSearchParams(form).toString();
  return send(method, new URL(url), body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, body);
};
const EXPIRED = /This invitation link has expired/;
async function assertDead(url: string): Promise<void> {
  for (const res of [await page('GET', url), await page('POST', url, { full_name: 'Late', email: `late${++n}@zulip.example.com`, password: 'a long enough password' })]) {
    assert.equal(res.status, 410, res.text);
    assert.match(res.text, EXPIRED);
  }
}
async function assertAlive(url: string): Promise<void> {
  const res = await page('GET', url);
  assert.equal(res.status, 200, res.text);
}
// Joins and returns the newcomer's client.
async function join(url: string): Promise<Client> {
  const email = `newcomer${++n}@zulip.example.com`;
  const res = await page('POST', url, { full_name: `Newcomer ${n}`, email, password: 'a long enough password' });
  assert.equal(res.status, 303, res.text); // into the web app, logged in
  const apiKey = assertSuccess(await new Client(server.url).post('/fetch_api_key', { username: email, password: 'a long enough password' })).api_key;
  return new Client(server.url, { email, apiKey });
}
const listed = async (as: SeedName) => assertSuccess(await server.as(as).get('/invites')).invites.map((i: { link_url: string }) => i.link_url) as string[];
const setRealm = async (name: string, group: string) => assertSuccess(await server.as('desdemona').patch('/realm', { [name]: { new: groups.get(group)! } }));

test("deactivating a user kills their invitation links, and reactivating them does not revive the links", async () => {
  const email = `inviter${++n}@zulip.example.com`;
  const id = assertSuccess(await server.as('desdemona').post('/users', { email, password: 'a long enough password', full_name: 'Inviter' })).user_id;
  assertSuccess(await server.as('desdemona').patch(`/users/${id}`, { role: 200 }));
  const inviter = new Client(server.url, { email, apiKey: assertSuccess(await new Client(server.url).post('/fetch_api_key', { username: email, password: 'a long enough password' })).api_key });
  const url = assertSuccess(await inviter.post('/invites/multiuse', {})).invite_link as string;
  const other = await link('iago');
  await assertAlive(url);
  const l = await Listeners.open(server, ['desdemona', 'iago'], { event_types: ['invites_changed'] });
  assertSuccess(await server.as('desdemona').delete(`/users/${id}`));
  await assertDead(url);
  await assertAlive(other);
  assert.ok(!(await listed('desdemona')).includes(url));
  assert.deepEqual((await l.take('iago')).map((e) => e.type), ['invites_changed']);
  assertSuccess(await server.as('desdemona').post(`/users/${id}/reactivate`));
  await assertDead(url);
});

test("a creator whose new role may no longer invite loses their links; links above their new role die", async () => {
  const email = `demoted${++n}@zulip.example.com`;
  const id = assertSuccess(await server.as('desdemona').post('/users', { email, password: 'a long enough password', full_name: 'Demoted' })).user_id;
  assertSuccess(await server.as('desdemona').patch(`/users/${id}`, { role: 200 }));
  const creator = new Client(server.url, { email, apiKey: assertSuccess(await new Client(server.url).post('/fetch_api_key', { username: email, password: 'a long enough password' })).api_key });
  const make = async (params: Record<string, ParamValue>) => assertSuccess(await creator.post('/invites/multiuse', params)).invite_link as string;

  // Moderators may invite: demoted to moderator, the creator keeps the member link, not the administrator one.
  await setRealm('create_multiuse_invite_group', 'role:moderators');
  try {
    const asMember = await make({ invite_as: 400 });
    const asAdmin = await make({ invite_as: 200 });
    const l = await Listeners.open(server, ['iago'], { event_types: ['invites_changed'] });
    assertSuccess(await server.as('desdemona').patch(`/users/${id}`, { role: 300 }));
    await assertAlive(asMember);
    await assertDead(asAdmin);
    assert.deepEqual((await l.take('iago')).map((e) => e.type), ['invites_changed']);
    // Demoted to member, who may not invite: every link of theirs dies.
    assertSuccess(await server.as('desdemona').patch(`/users/${id}`, { role: 400 }));
    await assertDead(asMember);
    assert.ok(!(await listed('iago')).includes(asMember));
  } finally {
    await setRealm('create_multiuse_invite_group', 'role:administrators');
  }
});

test("a link outlives no change of the organization's setting: its creator's right is checked when it is used", async () => {
  await setRealm('create_multiuse_invite_group', 'role:moderators');
  const url = await link('shiva');
  await assertAlive(url);
  await setRealm('create_multiuse_invite_group', 'role:administrators');
  await assertDead(url);
  assert.ok(!(await listed('iago')).includes(url), 'administrators no longer see it as live');
  // Data written before links were revoked with their creator: a deactivated creator's link is dead all the same.
  const old = await link('iago');
  const email = `ghost${++n}@zulip.example.com`;
  const id = assertSuccess(await server.as('desdemona').post('/users', { email, password: 'a long enough password', full_name: 'Ghost' })).user_id;
  assertSuccess(await server.as('desdemona').patch(`/users/${id}`, { role: 200 }));
  await withDb(server, (db) => db.updateTable('multiuse_invites').set({ referred_by: id }).where('key', '=', old.split('/').at(-2)!).execute());
  await withDb(server, (db) => db.updateTable('users').set({ is_active: 0 }).where('id', '=', id).execute());
  await assertDead(old);
});

test("a link adds newcomers only to the channels and groups its creator may still add them to", async () => {
  const open = await createChannel(server, 'iago', ['iago']);
  const secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  const kept = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  const club = assertSuccess(await server.as('iago').post('/user_groups/create', { name: `Club ${++n}`, description: '', members: [server.users.iago.id] })).group_id;
  const guarded = assertSuccess(await server.as('desdemona').post('/user_groups/create', {
    name: `Guarded ${++n}`, description: '', members: [], can_manage_group: { direct_members: [server.users.desdemona.id], direct_subgroups: [] },
    can_add_members_group: { direct_members: [server.users.iago.id], direct_subgroups: [] },
  })).group_id;
  const url = await link('iago', { stream_ids: [open, secret, kept], group_ids: [club, guarded] });

  // The creator leaves one private channel and loses the right to add members to one group.
  assertSuccess(await server.as('iago').delete('/users/me/subscriptions', { subscriptions: [(await server.as('iago').get(`/streams/${secret}`)).body.stream.name] }));
  assertSuccess(await server.as('desdemona').patch(`/user_groups/${guarded}`, { can_add_members_group: { new: { direct_members: [server.users.desdemona.id], direct_subgroups: [] } } }));

  const newcomer = await join(url);
  const subs = assertSuccess(await newcomer.get('/users/me/subscriptions')).subscriptions.map((s: { stream_id: number }) => s.stream_id);
  assert.deepEqual(subs.filter((id: number) => [open, secret, kept].includes(id)).sort(), [open, kept].sort());
  const me = assertSuccess(await newcomer.get('/users/me')).user_id;
  const member = async (g: number) => assertSuccess(await server.as('iago').get(`/user_groups/${g}/members/${me}`)).is_user_group_member;
  assert.equal(await member(club), true);
  assert.equal(await member(guarded), false);
});

test("deactivating a user deactivates their bots, even one whose role is owner", async () => {
  const bot = assertSuccess(await server.as('desdemona').post('/bots', { full_name: 'Crown bot', short_name: 'crown' })).user_id;
  assertSuccess(await server.as('desdemona').patch(`/bots/${bot}`, { role: 100, bot_owner_id: server.users.cordelia.id }));
  assertSuccess(await server.as('iago').delete(`/users/${server.users.cordelia.id}`));
  assert.equal(assertSuccess(await server.as('iago').get(`/users/${bot}`)).user.is_active, false);
  assertError(await server.as('iago').delete(`/bots/${bot}`), 400, 'BAD_REQUEST', 'User is already deactivated');
  assertSuccess(await server.as('iago').post(`/users/${server.users.cordelia.id}/reactivate`));
});
