import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import type { Reply } from './helpers/client.js';

let server: TestServer;
let system: Record<string, number>;
before(async () => {
  server = await startTestServer();
  const groups = (await server.as('iago').get('/user_groups')).body.user_groups as { id: number; name: string }[];
  system = Object.fromEntries(groups.map((g) => [g.name, g.id]));
});
after(() => server.close());

let n = 0;
const id = (name: SeedName) => server.users[name].id;
async function create(as: SeedName, extra: Record<string, unknown> = {}): Promise<Reply> {
  return server.as(as).post('/user_groups/create', { name: `Group ${++n}`, description: 'A group', members: [id('hamlet')], ...extra });
}
async function created(as: SeedName, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await create(as, extra);
  assertMatchesSchema('/user_groups/create', 'post', assertSuccess(res));
  return res.body.group_id;
}
const refused = (res: Reply, msg: string, code = 'BAD_REQUEST') => assertError(res, 400, code, msg);
const members = async (group: number, direct = true) => (await server.as('hamlet').get(`/user_groups/${group}/members`, { direct_member_only: direct })).body.members;

describe('reading groups', () => {
  test('system groups, members and subgroups, with the reference shapes', async () => {
    for (const name of ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody']) {
      assert.ok(system[name], name);
    }
    const list = await server.as('polonius').get('/user_groups');
    assertMatchesSchema('/user_groups', 'get', assertSuccess(list));
    const admins = list.body.user_groups.find((g: { name: string }) => g.name === 'role:administrators');
    assert.deepEqual(admins.direct_subgroup_ids, [system['role:owners']]);
    assert.deepEqual(admins.members, [id('iago')]);
    assert.equal(admins.is_system_group, true);
    assert.equal(admins.can_manage_group, system['role:nobody']);
    assert.equal(admins.deactivated, false);

    const all = await server.as('hamlet').get(`/user_groups/${system['role:moderators']}/members`);
    assertMatchesSchema('/user_groups/{user_group_id}/members', 'get', assertSuccess(all));
    assert.deepEqual(all.body.members, [id('desdemona'), id('iago'), id('shiva')].sort((a, b) => a - b));
    assert.deepEqual(await members(system['role:moderators']), [id('shiva')]);

    const sub = await server.as('hamlet').get(`/user_groups/${system['role:moderators']}/subgroups`);
    assertMatchesSchema('/user_groups/{user_group_id}/subgroups', 'get', assertSuccess(sub));
    assert.deepEqual(sub.body.subgroups, [system['role:owners'], system['role:administrators']].sort((a, b) => a - b));
    const direct = await server.as('hamlet').get(`/user_groups/${system['role:moderators']}/subgroups`, { direct_subgroup_only: true });
    assert.deepEqual(direct.body.subgroups, [system['role:administrators']]);

    const check = async (user: number, params: Record<string, unknown> = {}) => {
      const res = await server.as('hamlet').get(`/user_groups/${system['role:administrators']}/members/${user}`, params);
      assertMatchesSchema('/user_groups/{user_group_id}/members/{user_id}', 'get', assertSuccess(res));
      return res.body.is_user_group_member;
    };
    assert.equal(await check(id('iago')), true);
    assert.equal(await check(id('desdemona')), true, 'through the owners subgroup');
    assert.equal(await check(id('desdemona'), { direct_member_only: true }), false);
    assert.equal(await check(id('hamlet')), false);
  });

  test('read errors', async () => {
    const learGroups = (await server.as('lear').get('/user_groups')).body.user_groups as { id: number }[];
    for (const group of [999999, learGroups[0].id]) {
      refused(await server.as('hamlet').get(`/user_groups/${group}/members`), 'Invalid user group');
      refused(await server.as('hamlet').get(`/user_groups/${group}/subgroups`), 'Invalid user group');
      refused(await server.as('hamlet').get(`/user_groups/${group}/members/${id('hamlet')}`), 'Invalid user group');
    }
    refused(await server.as('hamlet').get(`/user_groups/${system['role:members']}/members/999999`), 'No such user');
    const made = await server.as('iago').post('/users', { email: `gone${Date.now()}@zulip.example.com`, password: 'secret123', full_name: 'Soon Gone' });
    assert.equal(made.status, 200, made.text);
    assert.equal((await server.as('iago').delete(`/users/${made.body.user_id}`)).status, 200);
    refused(await server.as('hamlet').get(`/user_groups/${system['role:members']}/members/${made.body.user_id}`), 'User is deactivated');
  });
});

describe('creating groups', () => {
  test('every role but guests may create; bots too; everyone hears of it', async () => {
    const l = await Listeners.open(server, ['cordelia', 'polonius']);
    for (const who of ['desdemona', 'iago', 'shiva', 'hamlet', 'bot'] as const) await created(who);
    assert.equal((await l.take('cordelia', 'user_group')).length, 5);
    refused(await create('polonius'), 'Not allowed for guest users');
    const group = await created('hamlet', { members: [id('hamlet'), id('cordelia'), id('bot')], subgroups: [system['role:moderators']], can_mention_group: system['role:everyone'] });
    for (const who of ['cordelia', 'polonius'] as const) {
      const [ev] = (await l.take(who, 'user_group')).slice(-1);
      assert.equal(ev.op, 'add');
      assert.equal(ev.group.id, group);
      assert.deepEqual(ev.group.members, [id('hamlet'), id('cordelia'), id('bot')].sort((a, b) => a - b));
      assert.deepEqual(ev.group.direct_subgroup_ids, [system['role:moderators']]);
      assert.deepEqual(ev.group.can_manage_group, { direct_members: [id('hamlet')], direct_subgroups: [] });
      assert.deepEqual(ev.group.can_add_members_group, { direct_members: [id('hamlet')], direct_subgroups: [] });
      assert.equal(ev.group.can_join_group, system['role:nobody']);
      assert.equal(ev.group.can_leave_group, system['role:everyone']);
      assert.equal(ev.group.can_remove_members_group, system['role:nobody']);
      assert.equal(ev.group.can_mention_group, system['role:everyone']);
      assert.deepEqual([ev.group.deactivated, ev.group.is_system_group, ev.group.creator_id], [false, false, id('hamlet')]);
      assert.equal(typeof ev.group.date_created, 'number');
    }
    const reg = await server.as('polonius').post('/register', { fetch_event_types: ['realm_user_groups'] });
    assert.ok(reg.body.realm_user_groups.some((g: { id: number }) => g.id === group));
  });

  test('the six settings in read form, and their restrictions', async () => {
    const anonymous = { direct_members: [id('cordelia')], direct_subgroups: [system['role:moderators']] };
    const group = await created('hamlet', {
      can_add_members_group: system['role:members'], can_join_group: anonymous, can_leave_group: system['role:nobody'],
      can_manage_group: system['role:administrators'], can_mention_group: system['role:moderators'], can_remove_members_group: anonymous,
    });
    const record = (await server.as('hamlet').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === group);
    assert.deepEqual(record.can_join_group, anonymous);
    assert.equal(record.can_manage_group, system['role:administrators']);
    // An object with one subgroup and no members is that subgroup; an empty one is role:nobody.
    const single = await created('hamlet', { can_join_group: { direct_members: [], direct_subgroups: [system['role:members']] }, can_leave_group: { direct_members: [], direct_subgroups: [] } });
    const s = (await server.as('hamlet').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === single);
    assert.deepEqual([s.can_join_group, s.can_leave_group], [system['role:members'], system['role:nobody']]);

    for (const setting of ['can_add_members_group', 'can_join_group', 'can_manage_group', 'can_remove_members_group']) {
      refused(await create('hamlet', { [setting]: system['role:everyone'] }), `'${setting}' setting cannot be set to 'role:everyone' group.`);
    }
    for (const setting of ['can_leave_group', 'can_manage_group', 'can_mention_group']) {
      refused(await create('hamlet', { [setting]: system['role:internet'] }), `'${setting}' setting cannot be set to 'role:internet' group.`);
    }
    refused(await create('hamlet', { can_mention_group: system['role:owners'] }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
    refused(await create('hamlet', { can_mention_group: 999999 }), 'Invalid user group');
    refused(await create('hamlet', { can_mention_group: { direct_members: [id('hamlet')], direct_subgroups: [999999] } }), 'Invalid user group ID: 999999');
    refused(await create('hamlet', { can_mention_group: { direct_members: [999999], direct_subgroups: [] } }), 'Invalid user ID: 999999');
  });

  test('names, members and subgroups are checked', async () => {
    refused(await create('hamlet', { members: [999999] }), 'Invalid user ID: 999999');
    refused(await create('hamlet', { name: ' ' }), "User group name can't be empty!");
    refused(await create('hamlet', { name: 'x'.repeat(101) }), 'User group name cannot exceed 100 characters.');
    for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
      refused(await create('hamlet', { name: `${prefix}crew` }), `User group name cannot start with '${prefix}'.`);
    }
    refused(await server.as('hamlet').post('/user_groups/create', { name: 'role:members', description: '', members: [] }), "User group name cannot start with 'role:'.");
    const name = `Taken ${++n}`;
    await server.as('hamlet').post('/user_groups/create', { name, description: '', members: [] });
    refused(await server.as('cordelia').post('/user_groups/create', { name, description: '', members: [] }), `User group '${name}' already exists.`);
    refused(await create('hamlet', { subgroups: [999999] }), 'Invalid user group ID: 999999');
  });

  test('can_create_groups decides who may create', async () => {
    assertSuccess(await server.as('desdemona').patch('/realm', { can_create_groups: { new: system['role:moderators'] } }));
    try {
      refused(await create('hamlet'), 'Insufficient permission');
      refused(await create('bot'), 'Insufficient permission');
      await created('shiva');
      await created('iago');
    } finally {
      assertSuccess(await server.as('desdemona').patch('/realm', { can_create_groups: { new: system['role:members'] } }));
    }
  });
});

describe('updating groups', () => {
  test('managers change name, description and settings; one event each', async () => {
    const group = await created('hamlet');
    const l = await Listeners.open(server, ['cordelia', 'polonius']);
    const ok = await server.as('hamlet').patch(`/user_groups/${group}`, {
      name: `Renamed ${group}`, description: 'New words', can_join_group: { new: system['role:members'], old: system['role:nobody'] },
    });
    assertMatchesSchema('/user_groups/{user_group_id}', 'patch', assertSuccess(ok));
    for (const who of ['cordelia', 'polonius'] as const) {
      const events = await l.take(who, 'user_group');
      assert.deepEqual(events.map((e) => [e.op, e.group_id, e.data]), [
        ['update', group, { name: `Renamed ${group}` }],
        ['update', group, { description: 'New words' }],
        ['update', group, { can_join_group: system['role:members'] }],
      ]);
    }
    // Unchanged values announce nothing.
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${group}`, { description: 'New words', can_join_group: { new: system['role:members'] } }));
    assert.deepEqual(await l.take('cordelia', 'user_group'), []);
  });

  test('who may manage a group, per role', async () => {
    const group = await created('hamlet');
    const rename = (as: SeedName) => server.as(as).patch(`/user_groups/${group}`, { description: `by ${as} ${++n}` });
    assertSuccess(await rename('hamlet'));
    assertSuccess(await rename('desdemona'));
    for (const who of ['iago', 'shiva', 'cordelia', 'bot'] as const) refused(await rename(who), 'Insufficient permission');
    refused(await rename('polonius'), 'Not allowed for guest users');
    // Administrators manage every group once the organization says so; bots manage the groups they made.
    assertSuccess(await server.as('desdemona').patch('/realm', { can_manage_all_groups: { new: system['role:administrators'] } }));
    try {
      assertSuccess(await rename('iago'));
      refused(await rename('shiva'), 'Insufficient permission');
    } finally {
      assertSuccess(await server.as('desdemona').patch('/realm', { can_manage_all_groups: { new: system['role:owners'] } }));
    }
    const botGroup = await created('bot');
    assertSuccess(await server.as('bot').patch(`/user_groups/${botGroup}`, { name: `Bot made ${botGroup}` }));
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${group}`, { can_manage_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [system['role:moderators']] } } }));
    assertSuccess(await rename('cordelia'));
    assertSuccess(await rename('shiva'));
    refused(await rename('hamlet'), 'Insufficient permission');
    refused(await server.as('desdemona').patch(`/user_groups/${system['role:members']}`, { name: 'x' }), 'Insufficient permission');
  });

  test('update errors', async () => {
    const group = await created('hamlet');
    const patch = (params: Record<string, unknown>) => server.as('hamlet').patch(`/user_groups/${group}`, params);
    const mismatch = await patch({ can_join_group: { new: system['role:members'], old: system['role:moderators'] } });
    refused(mismatch, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    refused(await patch({ can_join_group: system['role:members'] }), 'can_join_group does not have the expected format');
    refused(await patch({ can_mention_group: system['role:members'] }), 'can_mention_group does not have the expected format');
    refused(await patch({ can_manage_group: { new: system['role:everyone'] } }), "'can_manage_group' setting cannot be set to 'role:everyone' group.");
    refused(await patch({ can_manage_group: { new: system['role:internet'] } }), "'can_manage_group' setting cannot be set to 'role:internet' group.");
    refused(await patch({ can_mention_group: { new: system['role:owners'] } }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
    refused(await patch({ can_mention_group: { new: system['role:internet'] } }), "'can_mention_group' setting cannot be set to 'role:internet' group.");
    refused(await patch({ can_mention_group: { new: 999999 } }), 'Invalid user group');
    refused(await patch({}), 'No new data supplied');
    refused(await patch({ name: '@all' }), "User group name cannot start with '@'.");
    refused(await server.as('hamlet').patch('/user_groups/999999', { name: 'x' }), 'Invalid user group');
    const lear = (await server.as('lear').get('/user_groups')).body.user_groups[0].id;
    refused(await server.as('hamlet').patch(`/user_groups/${lear}`, { name: 'x' }), 'Invalid user group');
    // The old value may be given in either form.
    assertSuccess(await patch({ can_join_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [] }, old: { direct_members: [], direct_subgroups: [system['role:nobody']] } } }));
    assertSuccess(await patch({ can_join_group: { new: system['role:members'], old: { direct_members: [id('cordelia')], direct_subgroups: [] } } }));
  });
});

describe('membership', () => {
  test('join and leave by the group settings', async () => {
    const group = await created('hamlet', { can_join_group: system['role:members'] });
    const l = await Listeners.open(server, ['iago', 'polonius']);
    assertSuccess(await server.as('cordelia').post(`/user_groups/${group}/members`, { add: [id('cordelia')] }));
    for (const who of ['iago', 'polonius'] as const) {
      const [add] = await l.take(who, 'user_group');
      assert.deepEqual([add.op, add.group_id, add.user_ids], ['add_members', group, [id('cordelia')]]);
    }
    refused(await server.as('cordelia').post(`/user_groups/${group}/members`, { add: [id('shiva')] }), 'Insufficient permission');
    refused(await server.as('polonius').post(`/user_groups/${group}/members`, { add: [id('polonius')] }), 'Not allowed for guest users');
    assertSuccess(await server.as('cordelia').post(`/user_groups/${group}/members`, { delete: [id('cordelia')] }));
    const [rem] = await l.take('iago', 'user_group');
    assert.deepEqual([rem.op, rem.user_ids], ['remove_members', [id('cordelia')]]);
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${group}`, { can_leave_group: { new: system['role:nobody'] } }));
    assertSuccess(await server.as('cordelia').post(`/user_groups/${group}/members`, { add: [id('cordelia')] }));
    refused(await server.as('cordelia').post(`/user_groups/${group}/members`, { delete: [id('cordelia')] }), 'Insufficient permission');
    assertSuccess(await server.as('hamlet').post(`/user_groups/${group}/members`, { delete: [id('cordelia')] })); // a manager removes anyone
    assertSuccess(await server.as('desdemona').post(`/user_groups/${group}/members`, { add: [id('desdemona')] })); // owners manage all groups
  });

  test('can_add_members_group and can_remove_members_group', async () => {
    const group = await created('desdemona', {
      members: [], can_manage_group: system['role:nobody'], can_add_members_group: system['role:moderators'],
      can_remove_members_group: { direct_members: [id('cordelia')], direct_subgroups: [] },
    });
    refused(await server.as('hamlet').post(`/user_groups/${group}/members`, { add: [id('hamlet')] }), 'Insufficient permission');
    assertSuccess(await server.as('shiva').post(`/user_groups/${group}/members`, { add: [id('hamlet'), id('bot')] }));
    assertSuccess(await server.as('iago').post(`/user_groups/${group}/members`, { add: [id('polonius')] }));
    refused(await server.as('shiva').post(`/user_groups/${group}/members`, { delete: [id('hamlet')] }), 'Insufficient permission');
    assertSuccess(await server.as('cordelia').post(`/user_groups/${group}/members`, { delete: [id('hamlet'), id('polonius')] }));
    assert.deepEqual(await members(group), [id('bot')]);
  });

  test('membership errors; deactivated groups keep changing', async () => {
    const group = await created('hamlet');
    const change = (params: Record<string, unknown>) => server.as('hamlet').post(`/user_groups/${group}/members`, params);
    refused(await change({ add: [id('hamlet')] }), `User ${id('hamlet')} is already a member of this group`);
    refused(await change({ delete: [id('shiva')] }), `There is no member '${id('shiva')}' in this user group`);
    refused(await change({ add: [999999] }), 'Invalid user ID: 999999');
    refused(await change({ delete: [999999] }), 'Invalid user ID: 999999');
    refused(await change({}), 'Nothing to do. Specify at least one of "add" or "delete".');
    refused(await server.as('desdemona').post(`/user_groups/${system['role:members']}/members`, { add: [id('polonius')] }), 'Insufficient permission');
    refused(await server.as('hamlet').post('/user_groups/999999/members', { add: [id('hamlet')] }), 'Invalid user group');
    assertSuccess(await server.as('hamlet').post(`/user_groups/${group}/deactivate`, {}));
    assertSuccess(await change({ add: [id('cordelia')] }));
    assertSuccess(await change({ delete: [id('hamlet')] }));
    assert.deepEqual(await members(group), [id('cordelia')]);
  });
});

describe('subgroups', () => {
  test('added by those who may add members, removed by managers, never in a cycle', async () => {
    const a = await created('hamlet', { can_add_members_group: system['role:moderators'] });
    const b = await created('hamlet');
    const c = await created('hamlet');
    const l = await Listeners.open(server, ['cordelia']);
    assertSuccess(await server.as('shiva').post(`/user_groups/${a}/subgroups`, { add: [b] }));
    const [ev] = await l.take('cordelia', 'user_group');
    assert.deepEqual([ev.op, ev.group_id, ev.direct_subgroup_ids], ['add_subgroups', a, [b]]);
    refused(await server.as('shiva').post(`/user_groups/${a}/subgroups`, { delete: [b] }), 'Insufficient permission');
    refused(await server.as('cordelia').post(`/user_groups/${a}/subgroups`, { add: [c] }), 'Insufficient permission');
    refused(await server.as('polonius').post(`/user_groups/${a}/subgroups`, { add: [c] }), 'Not allowed for guest users');
    assertSuccess(await server.as('hamlet').post(`/user_groups/${b}/subgroups`, { add: [c] }));
    refused(await server.as('hamlet').post(`/user_groups/${c}/subgroups`, { add: [a] }), `User group ${c} is already a subgroup of one of the passed subgroups.`);
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [a] }), `User group ${a} is already a subgroup of one of the passed subgroups.`);
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [b] }), `User group ${b} is already a subgroup of this group.`);
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [c] }), `User group ${c} is not a subgroup of this group.`);
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [999999] }), 'Invalid user group ID: 999999');
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [999999] }), 'Invalid user group ID: 999999');
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    refused(await server.as('desdemona').post(`/user_groups/${system['role:members']}/subgroups`, { add: [a] }), 'Insufficient permission');
    assert.deepEqual((await server.as('hamlet').get(`/user_groups/${a}/subgroups`)).body.subgroups, [b, c]);
    await l.clear();
    assertSuccess(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [b] }));
    const [gone] = await l.take('cordelia', 'user_group');
    assert.deepEqual([gone.op, gone.direct_subgroup_ids], ['remove_subgroups', [b]]);
    // A deactivated group may not become a subgroup.
    assertSuccess(await server.as('hamlet').post(`/user_groups/${b}/subgroups`, { delete: [c] }));
    assertSuccess(await server.as('hamlet').post(`/user_groups/${c}/deactivate`, {}));
    refused(await server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [c] }), 'User group is deactivated.');
  });
});

describe('deactivation', () => {
  test('refused while a permission or an active supergroup uses the group', async () => {
    const used = await created('hamlet');
    const deactivate = () => server.as('hamlet').post(`/user_groups/${used}/deactivate`, {});
    const objections = async () => refused(await deactivate(), 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE').objections;

    const user = await created('hamlet', { can_mention_group: used });
    assert.deepEqual(await objections(), [{ type: 'user_group', group_id: user, settings: ['can_mention_group'] }]);
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${user}`, { can_mention_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [used] } } }));
    assert.deepEqual(await objections(), [{ type: 'user_group', group_id: user, settings: ['can_mention_group'] }], 'inside an anonymous group too');
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${user}`, { can_mention_group: { new: system['role:everyone'] } }));

    const parent = await created('hamlet', { subgroups: [used] });
    assert.deepEqual(await objections(), [{ type: 'subgroup', supergroup_ids: [parent] }]);
    assertSuccess(await server.as('hamlet').post(`/user_groups/${parent}/deactivate`, {}));

    const channel = `Guarded ${used}`;
    assertSuccess(await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: channel }], can_add_subscribers_group: used }));
    const streamId = (await server.as('hamlet').get('/get_stream_id', { stream: channel })).body.stream_id;
    assert.deepEqual(await objections(), [{ type: 'channel', channel_id: streamId, settings: ['can_add_subscribers_group'] }]);
    assertSuccess(await server.as('hamlet').patch(`/streams/${streamId}`, { can_add_subscribers_group: { new: system['role:nobody'] } }));

    assertSuccess(await server.as('desdemona').patch('/realm', { can_create_groups: { new: used } }));
    assert.deepEqual(await objections(), [{ type: 'realm', settings: ['can_create_groups'] }]);
    assertSuccess(await server.as('desdemona').patch('/realm', { can_create_groups: { new: system['role:members'] } }));

    assertSuccess(await deactivate());
    refused(await server.as('desdemona').post(`/user_groups/${system['role:members']}/deactivate`, {}), 'Insufficient permission');
    refused(await server.as('hamlet').post('/user_groups/999999/deactivate', {}), 'Invalid user group');
  });

  test('who may deactivate, per role', async () => {
    const group = await created('cordelia');
    for (const who of ['iago', 'shiva', 'hamlet', 'bot'] as const) refused(await server.as(who).post(`/user_groups/${group}/deactivate`, {}), 'Insufficient permission');
    refused(await server.as('polonius').post(`/user_groups/${group}/deactivate`, {}), 'Not allowed for guest users');
    assertSuccess(await server.as('desdemona').post(`/user_groups/${group}/deactivate`, {}));
  });

  test('events and lists follow include_deactivated_groups; editable while deactivated; reactivation', async () => {
    const group = await created('hamlet');
    const legacy = await Listeners.open(server, ['cordelia']);
    const modern = await Listeners.open(server, ['iago'], { client_capabilities: { include_deactivated_groups: true } });
    assertSuccess(await server.as('hamlet').post(`/user_groups/${group}/deactivate`, {}));
    assert.deepEqual((await legacy.take('cordelia', 'user_group')).map((e) => [e.op, e.group_id]), [['remove', group]]);
    assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => [e.op, e.data]), [['update', { deactivated: true }]]);
    assertSuccess(await server.as('hamlet').post(`/user_groups/${group}/deactivate`, {})); // again: changes nothing

    const listed = (await server.as('hamlet').get('/user_groups')).body.user_groups as { id: number }[];
    assert.ok(!listed.some((g) => g.id === group));
    const all = await server.as('hamlet').get('/user_groups', { include_deactivated_groups: true });
    assert.ok(all.body.user_groups.some((g: { id: number; deactivated: boolean }) => g.id === group && g.deactivated));
    const legacyReg = await server.as('cordelia').post('/register', { fetch_event_types: ['realm_user_groups'] });
    assert.ok(!legacyReg.body.realm_user_groups.some((g: { id: number }) => g.id === group));
    const modernReg = await server.as('cordelia').post('/register', { fetch_event_types: ['realm_user_groups'], client_capabilities: { include_deactivated_groups: true } });
    assert.ok(modernReg.body.realm_user_groups.some((g: { id: number; deactivated: boolean }) => g.id === group && g.deactivated));

    refused(await create('hamlet', { can_mention_group: group }), 'User group is deactivated.');
    refused(await create('hamlet', { can_mention_group: { direct_members: [id('hamlet')], direct_subgroups: [group] } }), 'User group is deactivated.');
    // Every setting stays editable; clients that do not know deactivated groups hear nothing of it.
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${group}`, { name: `Dormant ${group}`, can_join_group: { new: system['role:members'] } }));
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${group}`, { deactivated: true }));
    assert.deepEqual(await legacy.take('cordelia', 'user_group'), []);
    assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => e.data), [{ name: `Dormant ${group}` }, { can_join_group: system['role:members'] }]);

    assertSuccess(await server.as('hamlet').patch(`/user_groups/${group}`, { deactivated: false }));
    const back = await legacy.take('cordelia', 'user_group');
    assert.deepEqual(back.map((e) => [e.op, e.group?.id, e.group?.name, e.group?.deactivated]), [['add', group, `Dormant ${group}`, false]]);
    assert.ok(!('for_reactivation' in back[0]) && !('_for_reactivation' in back[0]));
    assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => [e.op, e.data]), [['update', { deactivated: false }]]);
    assert.ok((await server.as('hamlet').get('/user_groups')).body.user_groups.some((g: { id: number }) => g.id === group));
    const user = await created('hamlet', { can_mention_group: group });
    assert.ok(user, 'usable again after reactivation');
  });
});

test('group mentions mention members, as can_mention_group allows', async () => {
  const name = `Actors ${++n}`;
  const open = await server.as('hamlet').post('/user_groups/create', { name, description: '', members: [id('cordelia')], can_mention_group: system['role:everyone'] });
  const closed = await server.as('hamlet').post('/user_groups/create', { name: `Closed ${n}`, description: '', members: [id('cordelia')], can_mention_group: system['role:nobody'] });
  assertSuccess(open);
  assertSuccess(closed);
  await server.as('shiva').post('/users/me/subscriptions', { subscriptions: [{ name: 'Stage' }], principals: [id('shiva'), id('cordelia')] });
  const sent = await server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @*${name}*` });
  assert.equal(sent.status, 200, sent.text);
  const msg = await server.as('cordelia').get(`/messages/${sent.body.id}`);
  assert.ok(msg.body.message.flags.includes('mentioned'));
  assert.match(msg.body.message.content, /user-group-mention/);
  refused(await server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @*Closed ${n}*` }), `You are not allowed to mention user group 'Closed ${n}'.`);
  assertSuccess(await server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @_*Closed ${n}*` }));
});
