// role:fullmembers follows waiting_period_threshold: members whose accounts are younger than the waiting period
// are not full members, and age into it; changing the threshold recomputes the group, with user_group events.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { withApp, withDb } from './helpers/direct-db.js';
import { assertError, createChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let fullMembers: number;
let guarded: number; // only full members may post
before(async () => {
  server = await startTestServer();
  const groups = (await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] })).body.realm_user_groups as { id: number; name: string }[];
  fullMembers = groups.find((g) => g.name === 'role:fullmembers')!.id;
  guarded = await createChannel(server, 'iago', ['iago', 'shiva', 'hamlet', 'cordelia'], { can_send_message_group: JSON.stringify(fullMembers) });
});
after(() => server.close());

const id = (who: SeedName) => server.users[who].id;
const post = (who: SeedName) => server.as(who).post('/messages', { type: 'stream', to: guarded, topic: 't', content: 'hi' });
const setThreshold = (days: number) => server.as('desdemona').patch('/realm', { waiting_period_threshold: days }); // owners only
async function members(): Promise<number[]> {
  const res = await server.as('iago').get(`/user_groups/${fullMembers}/members`, { direct_member_only: true });
  assert.equal(res.status, 200, res.text);
  return [...res.body.members].sort((a: number, b: number) => a - b);
}
const ageAccount = (who: SeedName, days: number) =>
  withDb(server, async (db) => {
    const row = await db.selectFrom('users').select('date_joined').where('id', '=', id(who)).executeTakeFirstOrThrow();
    await db.updateTable('users').set({ date_joined: Number(row.date_joined) - days * 86400 }).where('id', '=', id(who)).execute();
  });

test('a waiting period takes new members out of role:fullmembers; moderators and up stay through subgroups', async () => {
  assert.equal((await post('hamlet')).status, 200);
  const l = await Listeners.open(server, ['cordelia'], { event_types: ['user_group'] });
  assert.equal((await setThreshold(3)).status, 200);
  const [removed] = await takeUntil(l, 'cordelia', 'user_group');
  assert.deepEqual([removed.op, removed.group_id], ['remove_members', fullMembers]);
  assert.deepEqual([...removed.user_ids].sort((a: number, b: number) => a - b), [id('hamlet'), id('cordelia'), id('bot')].sort((a, b) => a - b));
  assert.deepEqual(await members(), []);
  assertError(await post('hamlet'), 'You do not have permission to post in this channel.');
  assert.equal((await post('shiva')).status, 200);

  // An account old enough is promoted by the periodic pass.
  await ageAccount('hamlet', 4);
  const { promoteFullMembers } = await import('../src/actions/full-members.js');
  await withApp(server, (app) => promoteFullMembers(app));
  const [added] = await takeUntil(l, 'cordelia', 'user_group');
  assert.deepEqual([added.op, added.group_id, added.user_ids], ['add_members', fullMembers, [id('hamlet')]]);
  assert.equal((await post('hamlet')).status, 200);
  assertError(await post('cordelia'), 'You do not have permission to post in this channel.');
});

test('new users and role changes respect the waiting period; removing it restores everyone', async () => {
  const { doCreateUser } = await import('../src/actions/users.js');
  const { findRealmBySubdomain } = await import('../src/store/realms.js');
  const newcomer = await withApp(server, async (app) =>
    doCreateUser(app, (await findRealmBySubdomain(app.db, ''))!, { email: 'newcomer@zulip.example.com', fullName: 'Newcomer', password: null, role: 400 }));
  assert.ok(!(await members()).includes(newcomer.id));

  // cordelia (new) becomes a moderator and back: a member again, and still not a full member.
  assert.equal((await server.as('iago').patch(`/users/${id('cordelia')}`, { role: 300 })).status, 200);
  assert.equal((await post('cordelia')).status, 200);
  assert.equal((await server.as('iago').patch(`/users/${id('cordelia')}`, { role: 400 })).status, 200);
  assertError(await post('cordelia'), 'You do not have permission to post in this channel.');

  const l = await Listeners.open(server, ['hamlet'], { event_types: ['user_group'] });
  assert.equal((await setThreshold(0)).status, 200);
  const [added] = await takeUntil(l, 'hamlet', 'user_group');
  assert.deepEqual([added.op, [...added.user_ids].sort((a: number, b: number) => a - b)], ['add_members', [id('cordelia'), id('bot'), newcomer.id].sort((a, b) => a - b)]);
  assert.ok((await members()).includes(id('hamlet')));
  assert.equal((await post('cordelia')).status, 200);
});
