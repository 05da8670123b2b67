import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { SeedName } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { groupTestServer, refused } from './helpers/user-groups.js';

const g = groupTestServer();
const { id, create, created, members } = g;
let n = 0;

describe('reading groups', () => {
  test('system groups, members and subgroups, with the reference shapes', async () => {
    for (const name of ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody']) {
      assert.ok(g.system[name], name);
    }
    const list = await g.server.as('polonius').get('/user_groups');
    assertMatchesSchema('/user_groups', 'get', assertSuccess(list));
    const admins = list.body.user_groups.find((g: { name: string }) => g.name === 'role:administrators');
    assert.deepEqual(admins.direct_subgroup_ids, [g.system['role:owners']]);
    assert.deepEqual(admins.members, [id('iago')]);
    assert.equal(admins.is_system_group, true);
    assert.equal(admins.can_manage_group, g.system['role:nobody']);
    assert.equal(admins.deactivated, false);

    const all = await g.server.as('hamlet').get(`/user_groups/${g.system['role:moderators']}/members`);
    assertMatchesSchema('/user_groups/{user_group_id}/members', 'get', assertSuccess(all));
    assert.deepEqual(all.body.members, [id('desdemona'), id('iago'), id('shiva')].sort((a, b) => a - b));
    assert.deepEqual(await members(g.system['role:moderators']), [id('shiva')]);

    const sub = await g.server.as('hamlet').get(`/user_groups/${g.system['role:moderators']}/subgroups`);
    assertMatchesSchema('/user_groups/{user_group_id}/subgroups', 'get', assertSuccess(sub));
    assert.deepEqual(sub.body.subgroups, [g.system['role:owners'], g.system['role:administrators']].sort((a, b) => a - b));
    const direct = await g.server.as('hamlet').get(`/user_groups/${g.system['role:moderators']}/subgroups`, { direct_subgroup_only: true });
    assert.deepEqual(direct.body.subgroups, [g.system['role:administrators']]);

    const check = async (user: number, params: Record<string, unknown> = {}) => {
      const res = await g.server.as('hamlet').get(`/user_groups/${g.system['role:administrators']}/members/${user}`, params);
      assertMatchesSchema('/user_groups/{user_group_id}/members/{user_id}', 'get', assertSuccess(res));
      return res.body.is_user_group_member;
    };
    assert.equal(await check(id('iago')), true);
    assert.equal(await check(id('desdemona')), true, 'through the owners subgroup');
    assert.equal(await check(id('desdemona'), { direct_member_only: true }), false);
    assert.equal(await check(id('hamlet')), false);
  });

  test('read errors', async () => {
    const learGroups = (await g.server.as('lear').get('/user_groups')).body.user_groups as { id: number }[];
    for (const group of [999999, learGroups[0].id]) {
      refused(await g.server.as('hamlet').get(`/user_groups/${group}/members`), 'Invalid user group');
      refused(await g.server.as('hamlet').get(`/user_groups/${group}/subgroups`), 'Invalid user group');
      refused(await g.server.as('hamlet').get(`/user_groups/${group}/members/${id('hamlet')}`), 'Invalid user group');
    }
    refused(await g.server.as('hamlet').get(`/user_groups/${g.system['role:members']}/members/999999`), 'No such user');
    const made = await g.server.as('iago').post('/users', { email: `gone${Date.now()}@zulip.example.com`, password: 'secret123', full_name: 'Soon Gone' });
    assert.equal(made.status, 200, made.text);
    assert.equal((await g.server.as('iago').delete(`/users/${made.body.user_id}`)).status, 200);
    refused(await g.server.as('hamlet').get(`/user_groups/${g.system['role:members']}/members/${made.body.user_id}`), 'User is deactivated');
  });
});

describe('creating groups', () => {
  test('every role but guests may create; bots too; everyone hears of it', async () => {
    const l = await Listeners.open(g.server, ['cordelia', 'polonius']);
    for (const who of ['desdemona', 'iago', 'shiva', 'hamlet', 'bot'] as const) await created(who);
    assert.equal((await l.take('cordelia', 'user_group')).length, 5);
    refused(await create('polonius'), 'Not allowed for guest users');
    const group = await created('hamlet', { members: [id('hamlet'), id('cordelia'), id('bot')], subgroups: [g.system['role:moderators']], can_mention_group: g.system['role:everyone'] });
    for (const who of ['cordelia', 'polonius'] as const) {
      const [ev] = (await l.take(who, 'user_group')).slice(-1);
      assert.equal(ev.op, 'add');
      assert.equal(ev.group.id, group);
      assert.deepEqual(ev.group.members, [id('hamlet'), id('cordelia'), id('bot')].sort((a, b) => a - b));
      assert.deepEqual(ev.group.direct_subgroup_ids, [g.system['role:moderators']]);
      assert.deepEqual(ev.group.can_manage_group, { direct_members: [id('hamlet')], direct_subgroups: [] });
      assert.deepEqual(ev.group.can_add_members_group, { direct_members: [id('hamlet')], direct_subgroups: [] });
      assert.equal(ev.group.can_join_group, g.system['role:nobody']);
      assert.equal(ev.group.can_leave_group, g.system['role:everyone']);
      assert.equal(ev.group.can_remove_members_group, g.system['role:nobody']);
      assert.equal(ev.group.can_mention_group, g.system['role:everyone']);
      assert.deepEqual([ev.group.deactivated, ev.group.is_system_group, ev.group.creator_id], [false, false, id('hamlet')]);
      assert.equal(typeof ev.group.date_created, 'number');
    }
    const reg = await g.server.as('polonius').post('/register', { fetch_event_types: ['realm_user_groups'] });
    assert.ok(reg.body.realm_user_groups.some((g: { id: number }) => g.id === group));
  });

  test('the six settings in read form, and their restrictions', async () => {
    const anonymous = { direct_members: [id('cordelia')], direct_subgroups: [g.system['role:moderators']] };
    const group = await created('hamlet', {
      can_add_members_group: g.system['role:members'], can_join_group: anonymous, can_leave_group: g.system['role:nobody'],
      can_manage_group: g.system['role:administrators'], can_mention_group: g.system['role:moderators'], can_remove_members_group: anonymous,
    });
    const record = (await g.server.as('hamlet').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === group);
    assert.deepEqual(record.can_join_group, anonymous);
    assert.equal(record.can_manage_group, g.system['role:administrators']);
    // An object with one subgroup and no members is that subgroup; an empty one is role:nobody.
    const single = await created('hamlet', { can_join_group: { direct_members: [], direct_subgroups: [g.system['role:members']] }, can_leave_group: { direct_members: [], direct_subgroups: [] } });
    const s = (await g.server.as('hamlet').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === single);
    assert.deepEqual([s.can_join_group, s.can_leave_group], [g.system['role:members'], g.system['role:nobody']]);

    for (const setting of ['can_add_members_group', 'can_join_group', 'can_manage_group', 'can_remove_members_group']) {
      refused(await create('hamlet', { [setting]: g.system['role:everyone'] }), `'${setting}' setting cannot be set to 'role:everyone' group.`);
    }
    for (const setting of ['can_leave_group', 'can_manage_group', 'can_mention_group']) {
      refused(await create('hamlet', { [setting]: g.system['role:internet'] }), `'${setting}' setting cannot be set to 'role:internet' group.`);
    }
    refused(await create('hamlet', { can_mention_group: g.system['role:owners'] }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
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
    refused(await g.server.as('hamlet').post('/user_groups/create', { name: 'role:members', description: '', members: [] }), "User group name cannot start with 'role:'.");
    const name = `Taken ${++n}`;
    await g.server.as('hamlet').post('/user_groups/create', { name, description: '', members: [] });
    refused(await g.server.as('cordelia').post('/user_groups/create', { name, description: '', members: [] }), `User group '${name}' already exists.`);
    refused(await create('hamlet', { subgroups: [999999] }), 'Invalid user group ID: 999999');
  });

  test('can_create_groups decides who may create', async () => {
    assertSuccess(await g.server.as('desdemona').patch('/realm', { can_create_groups: { new: g.system['role:moderators'] } }));
    try {
      refused(await create('hamlet'), 'Insufficient permission');
      refused(await create('bot'), 'Insufficient permission');
      await created('shiva');
      await created('iago');
    } finally {
      assertSuccess(await g.server.as('desdemona').patch('/realm', { can_create_groups: { new: g.system['role:members'] } }));
    }
  });
});

describe('updating groups', () => {
  test('managers change name, description and settings; one event each', async () => {
    const group = await created('hamlet');
    const l = await Listeners.open(g.server, ['cordelia', 'polonius']);
    const ok = await g.server.as('hamlet').patch(`/user_groups/${group}`, {
      name: `Renamed ${group}`, description: 'New words', can_join_group: { new: g.system['role:members'], old: g.system['role:nobody'] },
    });
    assertMatchesSchema('/user_groups/{user_group_id}', 'patch', assertSuccess(ok));
    for (const who of ['cordelia', 'polonius'] as const) {
      const events = await l.take(who, 'user_group');
      assert.deepEqual(events.map((e) => [e.op, e.group_id, e.data]), [
        ['update', group, { name: `Renamed ${group}` }],
        ['update', group, { description: 'New words' }],
        ['update', group, { can_join_group: g.system['role:members'] }],
      ]);
    }
    // Unchanged values announce nothing.
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${group}`, { description: 'New words', can_join_group: { new: g.system['role:members'] } }));
    assert.deepEqual(await l.take('cordelia', 'user_group'), []);
  });

  test('who may manage a group, per role', async () => {
    const group = await created('hamlet');
    const rename = (as: SeedName) => g.server.as(as).patch(`/user_groups/${group}`, { description: `by ${as} ${++n}` });
    assertSuccess(await rename('hamlet'));
    assertSuccess(await rename('desdemona'));
    for (const who of ['iago', 'shiva', 'cordelia', 'bot'] as const) refused(await rename(who), 'Insufficient permission');
    refused(await rename('polonius'), 'Not allowed for guest users');
    // Administrators manage every group once the organization says so; bots manage the groups they made.
    assertSuccess(await g.server.as('desdemona').patch('/realm', { can_manage_all_groups: { new: g.system['role:administrators'] } }));
    try {
      assertSuccess(await rename('iago'));
      refused(await rename('shiva'), 'Insufficient permission');
    } finally {
      assertSuccess(await g.server.as('desdemona').patch('/realm', { can_manage_all_groups: { new: g.system['role:owners'] } }));
    }
    const botGroup = await created('bot');
    assertSuccess(await g.server.as('bot').patch(`/user_groups/${botGroup}`, { name: `Bot made ${botGroup}` }));
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${group}`, { can_manage_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [g.system['role:moderators']] } } }));
    assertSuccess(await rename('cordelia'));
    assertSuccess(await rename('shiva'));
    refused(await rename('hamlet'), 'Insufficient permission');
    refused(await g.server.as('desdemona').patch(`/user_groups/${g.system['role:members']}`, { name: 'x' }), 'Insufficient permission');
  });

  test('update errors', async () => {
    const group = await created('hamlet');
    const patch = (params: Record<string, unknown>) => g.server.as('hamlet').patch(`/user_groups/${group}`, params);
    const mismatch = await patch({ can_join_group: { new: g.system['role:members'], old: g.system['role:moderators'] } });
    refused(mismatch, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    refused(await patch({ can_join_group: g.system['role:members'] }), 'can_join_group does not have the expected format');
    refused(await patch({ can_mention_group: g.system['role:members'] }), 'can_mention_group does not have the expected format');
    refused(await patch({ can_manage_group: { new: g.system['role:everyone'] } }), "'can_manage_group' setting cannot be set to 'role:everyone' group.");
    refused(await patch({ can_manage_group: { new: g.system['role:internet'] } }), "'can_manage_group' setting cannot be set to 'role:internet' group.");
    refused(await patch({ can_mention_group: { new: g.system['role:owners'] } }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
    refused(await patch({ can_mention_group: { new: g.system['role:internet'] } }), "'can_mention_group' setting cannot be set to 'role:internet' group.");
    refused(await patch({ can_mention_group: { new: 999999 } }), 'Invalid user group');
    refused(await patch({}), 'No new data supplied');
    refused(await patch({ name: '@all' }), "User group name cannot start with '@'.");
    refused(await g.server.as('hamlet').patch('/user_groups/999999', { name: 'x' }), 'Invalid user group');
    const lear = (await g.server.as('lear').get('/user_groups')).body.user_groups[0].id;
    refused(await g.server.as('hamlet').patch(`/user_groups/${lear}`, { name: 'x' }), 'Invalid user group');
    // The old value may be given in either form.
    assertSuccess(await patch({ can_join_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [] }, old: { direct_members: [], direct_subgroups: [g.system['role:nobody']] } } }));
    assertSuccess(await patch({ can_join_group: { new: g.system['role:members'], old: { direct_members: [id('cordelia')], direct_subgroups: [] } } }));
  });
});

