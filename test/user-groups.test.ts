import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
let system: Record<string, number>;
before(async () => {
  server = await startTestServer();
  const groups = (await server.as('iago').get('/user_groups')).body.user_groups as { id: number; name: string }[];
  system = Object.fromEntries(groups.map((g) => [g.name, g.id]));
});
after(() => server.close());

let n = 0;
async function create(as: 'hamlet' | 'iago' | 'polonius' | 'bot' | 'desdemona', extra: Record<string, unknown> = {}) {
  return server.as(as).post('/user_groups/create', { name: `Group ${++n}`, description: 'A group', members: [server.users.hamlet.id], ...extra });
}

test('system groups are listed with their nesting', async () => {
  for (const name of ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody']) {
    assert.ok(system[name], name);
  }
  const res = await server.as('hamlet').get('/user_groups');
  const admins = res.body.user_groups.find((g: { name: string }) => g.name === 'role:administrators');
  assert.deepEqual(admins.direct_subgroup_ids, [system['role:owners']]);
  assert.deepEqual(admins.members, [server.users.iago.id]);
  assert.equal(admins.is_system_group, true);
  const everyone = await server.as('hamlet').get(`/user_groups/${system['role:everyone']}/members`);
  assert.ok(everyone.body.members.includes(server.users.polonius.id) && everyone.body.members.includes(server.users.desdemona.id));
  const check = await server.as('hamlet').get(`/user_groups/${system['role:members']}/members/${server.users.polonius.id}`);
  assert.equal(check.body.is_user_group_member, false);
});

test('create: members, subgroups, settings, events; guests may not', async () => {
  const l = await Listeners.open(server, ['cordelia', 'polonius']);
  const res = await create('hamlet', { members: [server.users.hamlet.id, server.users.cordelia.id], subgroups: [system['role:moderators']], can_mention_group: system['role:everyone'] });
  assert.equal(res.status, 200, res.text);
  const id = res.body.group_id;
  for (const who of ['cordelia', 'polonius'] as const) {
    const [ev] = await l.take(who, 'user_group');
    assert.equal(ev.op, 'add');
    assert.equal(ev.group.id, id);
    assert.deepEqual(ev.group.members, [server.users.hamlet.id, server.users.cordelia.id].sort((a, b) => a - b));
    assert.deepEqual(ev.group.direct_subgroup_ids, [system['role:moderators']]);
    assert.deepEqual(ev.group.can_manage_group, { direct_members: [server.users.hamlet.id], direct_subgroups: [] });
    assert.equal(ev.group.can_mention_group, system['role:everyone']);
  }
  assert.equal((await create('bot')).status, 200, 'bots may create groups');
  assert.equal((await create('polonius')).body.msg, 'Insufficient permission');
  assert.equal((await create('hamlet', { members: [999999] })).body.msg, 'Invalid user ID: 999999');
  assert.equal((await create('hamlet', { name: 'role:fake' })).body.msg, "User group name cannot start with 'role:'.");
  const name = (await server.as('hamlet').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === id).name;
  const dup = await server.as('hamlet').post('/user_groups/create', { name, description: '', members: [] });
  assert.equal(dup.body.msg, `User group '${name}' already exists.`);
  const bad = await create('hamlet', { can_manage_group: system['role:everyone'] });
  assert.equal(bad.body.msg, "'can_manage_group' setting cannot be set to 'role:everyone' group.");
  const owners = await create('hamlet', { can_mention_group: system['role:owners'] });
  assert.equal(owners.body.msg, "'can_mention_group' setting cannot be set to 'role:owners' group.");
  const reg = await server.as('cordelia').post('/register', { fetch_event_types: ['realm_user_groups'] });
  assert.ok(reg.body.realm_user_groups.some((g: { id: number }) => g.id === id));
});

test('update with the {new, old} form; only managers; EXPECTATION_MISMATCH', async () => {
  const id = (await create('hamlet')).body.group_id;
  const l = await Listeners.open(server, ['cordelia']);
  const ok = await server.as('hamlet').patch(`/user_groups/${id}`, { name: 'Renamed', can_join_group: { new: system['role:members'], old: system['role:nobody'] } });
  assert.equal(ok.status, 200, ok.text);
  const [ev] = await l.take('cordelia', 'user_group');
  assert.deepEqual([ev.op, ev.group_id, ev.data], ['update', id, { name: 'Renamed', can_join_group: system['role:members'] }]);
  const mismatch = await server.as('hamlet').patch(`/user_groups/${id}`, { can_join_group: { new: system['role:nobody'], old: system['role:nobody'] } });
  assert.equal(mismatch.body.code, 'EXPECTATION_MISMATCH');
  assert.equal((await server.as('cordelia').patch(`/user_groups/${id}`, { name: 'Mine' })).body.msg, 'Insufficient permission');
  assert.equal((await server.as('desdemona').patch(`/user_groups/${id}`, { description: 'Owners manage all groups' })).status, 200);
  assert.equal((await server.as('hamlet').patch(`/user_groups/${id}`, {})).body.msg, 'No new data supplied');
  assert.equal((await server.as('hamlet').patch('/user_groups/999999', { name: 'x' })).body.msg, 'Invalid user group');
  assert.equal((await server.as('desdemona').patch(`/user_groups/${system['role:members']}`, { name: 'x' })).body.msg, 'Insufficient permission');
});

test('membership: join and leave by setting, add and remove by managers', async () => {
  const id = (await create('hamlet', { can_join_group: system['role:members'] })).body.group_id;
  const l = await Listeners.open(server, ['iago']);
  assert.equal((await server.as('cordelia').post(`/user_groups/${id}/members`, { add: [server.users.cordelia.id] })).status, 200);
  const [add] = await l.take('iago', 'user_group');
  assert.deepEqual([add.op, add.user_ids], ['add_members', [server.users.cordelia.id]]);
  assert.equal((await server.as('cordelia').post(`/user_groups/${id}/members`, { add: [server.users.shiva.id] })).body.msg, 'Insufficient permission');
  assert.equal((await server.as('polonius').post(`/user_groups/${id}/members`, { add: [server.users.polonius.id] })).body.msg, 'Insufficient permission');
  assert.equal((await server.as('cordelia').post(`/user_groups/${id}/members`, { delete: [server.users.cordelia.id] })).status, 200, 'anyone may leave');
  assert.equal((await server.as('hamlet').post(`/user_groups/${id}/members`, { add: [server.users.hamlet.id] })).body.msg, `User ${server.users.hamlet.id} is already a member of this group`);
  assert.equal((await server.as('hamlet').post(`/user_groups/${id}/members`, { delete: [server.users.shiva.id] })).body.msg, `There is no member '${server.users.shiva.id}' in this user group`);
  const members = await server.as('hamlet').get(`/user_groups/${id}/members`, { direct_member_only: true });
  assert.deepEqual(members.body.members, [server.users.hamlet.id]);
});

test('subgroups: no cycles', async () => {
  const a = (await create('hamlet')).body.group_id;
  const b = (await create('hamlet')).body.group_id;
  assert.equal((await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [b] })).status, 200);
  assert.equal((await server.as('hamlet').post(`/user_groups/${b}/subgroups`, { add: [a] })).body.msg, `User group ${a} is already a supergroup of this group.`);
  assert.equal((await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [a] })).body.msg, `User group ${a} is already a supergroup of this group.`);
  assert.deepEqual((await server.as('hamlet').get(`/user_groups/${a}/subgroups`)).body.subgroups, [b]);
  assert.equal((await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [b] })).status, 200);
});

test('deactivation: refused while in use, events per capability, reactivation', async () => {
  const used = (await create('hamlet')).body.group_id;
  const user = (await create('hamlet', { can_mention_group: used })).body.group_id;
  const refused = await server.as('hamlet').post(`/user_groups/${used}/deactivate`, {});
  assert.equal(refused.body.code, 'CANNOT_DEACTIVATE_GROUP_IN_USE');
  assert.deepEqual(refused.body.objections, [{ type: 'user_group', group_id: user, settings: ['can_mention_group'] }]);
  const legacy = await Listeners.open(server, ['cordelia']);
  const modern = await Listeners.open(server, ['iago'], { client_capabilities: { include_deactivated_groups: true } });
  assert.equal((await server.as('hamlet').post(`/user_groups/${user}/deactivate`, {})).status, 200);
  assert.deepEqual((await legacy.take('cordelia', 'user_group')).map((e) => e.op), ['remove']);
  assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => [e.op, e.data]), [['update', { deactivated: true }]]);
  const listed = await server.as('hamlet').get('/user_groups');
  assert.ok(!listed.body.user_groups.some((g: { id: number }) => g.id === user));
  const all = await server.as('hamlet').get('/user_groups', { include_deactivated_groups: true });
  assert.ok(all.body.user_groups.some((g: { id: number; deactivated: boolean }) => g.id === user && g.deactivated));
  assert.equal((await create('hamlet', { can_mention_group: user })).body.msg, 'User group is deactivated.');
  assert.equal((await server.as('hamlet').patch(`/user_groups/${user}`, { description: 'still editable' })).status, 200);
  assert.equal((await server.as('hamlet').patch(`/user_groups/${user}`, { deactivated: false })).status, 200);
  assert.ok((await server.as('hamlet').get('/user_groups')).body.user_groups.some((g: { id: number }) => g.id === user));
  assert.equal((await server.as('hamlet').post(`/user_groups/${used}/deactivate`, {})).status, 400, 'in use again after reactivation');
});

test('group mentions mention members, as can_mention_group allows', async () => {
  const name = `Actors ${++n}`;
  const open = await server.as('hamlet').post('/user_groups/create', { name, description: '', members: [server.users.cordelia.id], can_mention_group: system['role:everyone'] });
  const closed = await server.as('hamlet').post('/user_groups/create', { name: `Closed ${n}`, description: '', members: [server.users.cordelia.id], can_mention_group: system['role:nobody'] });
  assert.equal(open.status, 200);
  assert.equal(closed.status, 200);
  await server.as('shiva').post('/users/me/subscriptions', { subscriptions: [{ name: 'Stage' }], principals: [server.users.shiva.id, server.users.cordelia.id] });
  const sent = await server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @*${name}*` });
  assert.equal(sent.status, 200, sent.text);
  const msg = await server.as('cordelia').get(`/messages/${sent.body.id}`);
  assert.ok(msg.body.message.flags.includes('mentioned'));
  assert.match(msg.body.message.content, /user-group-mention/);
  const refused = await server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @*Closed ${n}*` });
  assert.equal(refused.body.msg, `You are not allowed to mention user group 'Closed ${n}'.`);
  const silent = await server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @_*Closed ${n}*` });
  assert.equal(silent.status, 200, 'silent mentions need no permission');
});
