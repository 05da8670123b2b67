import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Listeners } from './helpers/events.js';
import { assertSuccess } from './helpers/assertions.js';
import { groupTestServer, refused } from './helpers/user-groups.js';

const g = groupTestServer();
const { id, create, created, members } = g;
let n = 1000;

describe('membership', () => {
  test('join and leave by the group settings', async () => {
    const group = await created('hamlet', { can_join_group: g.system['role:members'] });
    const l = await Listeners.open(g.server, ['iago', 'polonius']);
    assertSuccess(await g.server.as('cordelia').post(`/user_groups/${group}/members`, { add: [id('cordelia')] }));
    for (const who of ['iago', 'polonius'] as const) {
      const [add] = await l.take(who, 'user_group');
      assert.deepEqual([add.op, add.group_id, add.user_ids], ['add_members', group, [id('cordelia')]]);
    }
    refused(await g.server.as('cordelia').post(`/user_groups/${group}/members`, { add: [id('shiva')] }), 'Insufficient permission');
    refused(await g.server.as('polonius').post(`/user_groups/${group}/members`, { add: [id('polonius')] }), 'Not allowed for guest users');
    assertSuccess(await g.server.as('cordelia').post(`/user_groups/${group}/members`, { delete: [id('cordelia')] }));
    const [rem] = await l.take('iago', 'user_group');
    assert.deepEqual([rem.op, rem.user_ids], ['remove_members', [id('cordelia')]]);
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${group}`, { can_leave_group: { new: g.system['role:nobody'] } }));
    assertSuccess(await g.server.as('cordelia').post(`/user_groups/${group}/members`, { add: [id('cordelia')] }));
    refused(await g.server.as('cordelia').post(`/user_groups/${group}/members`, { delete: [id('cordelia')] }), 'Insufficient permission');
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${group}/members`, { delete: [id('cordelia')] })); // a manager removes anyone
    assertSuccess(await g.server.as('desdemona').post(`/user_groups/${group}/members`, { add: [id('desdemona')] })); // owners manage all groups
  });

  test('can_add_members_group and can_remove_members_group', async () => {
    const group = await created('desdemona', {
      members: [], can_manage_group: g.system['role:nobody'], can_add_members_group: g.system['role:moderators'],
      can_remove_members_group: { direct_members: [id('cordelia')], direct_subgroups: [] },
    });
    refused(await g.server.as('hamlet').post(`/user_groups/${group}/members`, { add: [id('hamlet')] }), 'Insufficient permission');
    assertSuccess(await g.server.as('shiva').post(`/user_groups/${group}/members`, { add: [id('hamlet'), id('bot')] }));
    assertSuccess(await g.server.as('iago').post(`/user_groups/${group}/members`, { add: [id('polonius')] }));
    refused(await g.server.as('shiva').post(`/user_groups/${group}/members`, { delete: [id('hamlet')] }), 'Insufficient permission');
    assertSuccess(await g.server.as('cordelia').post(`/user_groups/${group}/members`, { delete: [id('hamlet'), id('polonius')] }));
    assert.deepEqual(await members(group), [id('bot')]);
  });

  test('membership errors; deactivated groups keep changing', async () => {
    const group = await created('hamlet');
    const change = (params: Record<string, unknown>) => g.server.as('hamlet').post(`/user_groups/${group}/members`, params);
    refused(await change({ add: [id('hamlet')] }), `User ${id('hamlet')} is already a member of this group`);
    refused(await change({ delete: [id('shiva')] }), `There is no member '${id('shiva')}' in this user group`);
    refused(await change({ add: [999999] }), 'Invalid user ID: 999999');
    refused(await change({ delete: [999999] }), 'Invalid user ID: 999999');
    refused(await change({}), 'Nothing to do. Specify at least one of "add" or "delete".');
    refused(await g.server.as('desdemona').post(`/user_groups/${g.system['role:members']}/members`, { add: [id('polonius')] }), 'Insufficient permission');
    refused(await g.server.as('hamlet').post('/user_groups/999999/members', { add: [id('hamlet')] }), 'Invalid user group');
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${group}/deactivate`, {}));
    assertSuccess(await change({ add: [id('cordelia')] }));
    assertSuccess(await change({ delete: [id('hamlet')] }));
    assert.deepEqual(await members(group), [id('cordelia')]);
  });
});

describe('subgroups', () => {
  test('added by those who may add members, removed by managers, never in a cycle', async () => {
    const a = await created('hamlet', { can_add_members_group: g.system['role:moderators'] });
    const b = await created('hamlet');
    const c = await created('hamlet');
    const l = await Listeners.open(g.server, ['cordelia']);
    assertSuccess(await g.server.as('shiva').post(`/user_groups/${a}/subgroups`, { add: [b] }));
    const [ev] = await l.take('cordelia', 'user_group');
    assert.deepEqual([ev.op, ev.group_id, ev.direct_subgroup_ids], ['add_subgroups', a, [b]]);
    refused(await g.server.as('shiva').post(`/user_groups/${a}/subgroups`, { delete: [b] }), 'Insufficient permission');
    refused(await g.server.as('cordelia').post(`/user_groups/${a}/subgroups`, { add: [c] }), 'Insufficient permission');
    refused(await g.server.as('polonius').post(`/user_groups/${a}/subgroups`, { add: [c] }), 'Not allowed for guest users');
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${b}/subgroups`, { add: [c] }));
    refused(await g.server.as('hamlet').post(`/user_groups/${c}/subgroups`, { add: [a] }), `User group ${c} is already a subgroup of one of the passed subgroups.`);
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [a] }), `User group ${a} is already a subgroup of one of the passed subgroups.`);
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [b] }), `User group ${b} is already a subgroup of this group.`);
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [c] }), `User group ${c} is not a subgroup of this group.`);
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [999999] }), 'Invalid user group ID: 999999');
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [999999] }), 'Invalid user group ID: 999999');
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    refused(await g.server.as('desdemona').post(`/user_groups/${g.system['role:members']}/subgroups`, { add: [a] }), 'Insufficient permission');
    assert.deepEqual((await g.server.as('hamlet').get(`/user_groups/${a}/subgroups`)).body.subgroups, [b, c]);
    await l.clear();
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { delete: [b] }));
    const [gone] = await l.take('cordelia', 'user_group');
    assert.deepEqual([gone.op, gone.direct_subgroup_ids], ['remove_subgroups', [b]]);
    // A deactivated group may not become a subgroup.
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${b}/subgroups`, { delete: [c] }));
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${c}/deactivate`, {}));
    refused(await g.server.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [c] }), 'User group is deactivated.');
  });
});

describe('deactivation', () => {
  test('refused while a permission or an active supergroup uses the group', async () => {
    const used = await created('hamlet');
    const deactivate = () => g.server.as('hamlet').post(`/user_groups/${used}/deactivate`, {});
    const objections = async () => refused(await deactivate(), 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE').objections;

    const user = await created('hamlet', { can_mention_group: used });
    assert.deepEqual(await objections(), [{ type: 'user_group', group_id: user, settings: ['can_mention_group'] }]);
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${user}`, { can_mention_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [used] } } }));
    assert.deepEqual(await objections(), [{ type: 'user_group', group_id: user, settings: ['can_mention_group'] }], 'inside an anonymous group too');
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${user}`, { can_mention_group: { new: g.system['role:everyone'] } }));

    const parent = await created('hamlet', { subgroups: [used] });
    assert.deepEqual(await objections(), [{ type: 'subgroup', supergroup_ids: [parent] }]);
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${parent}/deactivate`, {}));

    const channel = `Guarded ${used}`;
    assertSuccess(await g.server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: channel }], can_add_subscribers_group: used }));
    const streamId = (await g.server.as('hamlet').get('/get_stream_id', { stream: channel })).body.stream_id;
    assert.deepEqual(await objections(), [{ type: 'channel', channel_id: streamId, settings: ['can_add_subscribers_group'] }]);
    assertSuccess(await g.server.as('hamlet').patch(`/streams/${streamId}`, { can_add_subscribers_group: { new: g.system['role:nobody'] } }));

    assertSuccess(await g.server.as('desdemona').patch('/realm', { can_create_groups: { new: used } }));
    assert.deepEqual(await objections(), [{ type: 'realm', settings: ['can_create_groups'] }]);
    assertSuccess(await g.server.as('desdemona').patch('/realm', { can_create_groups: { new: g.system['role:members'] } }));

    assertSuccess(await deactivate());
    refused(await g.server.as('desdemona').post(`/user_groups/${g.system['role:members']}/deactivate`, {}), 'Insufficient permission');
    refused(await g.server.as('hamlet').post('/user_groups/999999/deactivate', {}), 'Invalid user group');
  });

  test('who may deactivate, per role', async () => {
    const group = await created('cordelia');
    for (const who of ['iago', 'shiva', 'hamlet', 'bot'] as const) refused(await g.server.as(who).post(`/user_groups/${group}/deactivate`, {}), 'Insufficient permission');
    refused(await g.server.as('polonius').post(`/user_groups/${group}/deactivate`, {}), 'Not allowed for guest users');
    assertSuccess(await g.server.as('desdemona').post(`/user_groups/${group}/deactivate`, {}));
  });

  test('events and lists follow include_deactivated_groups; editable while deactivated; reactivation', async () => {
    const group = await created('hamlet');
    const legacy = await Listeners.open(g.server, ['cordelia']);
    const modern = await Listeners.open(g.server, ['iago'], { client_capabilities: { include_deactivated_groups: true } });
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${group}/deactivate`, {}));
    assert.deepEqual((await legacy.take('cordelia', 'user_group')).map((e) => [e.op, e.group_id]), [['remove', group]]);
    assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => [e.op, e.data]), [['update', { deactivated: true }]]);
    assertSuccess(await g.server.as('hamlet').post(`/user_groups/${group}/deactivate`, {})); // again: changes nothing

    const listed = (await g.server.as('hamlet').get('/user_groups')).body.user_groups as { id: number }[];
    assert.ok(!listed.some((g) => g.id === group));
    const all = await g.server.as('hamlet').get('/user_groups', { include_deactivated_groups: true });
    assert.ok(all.body.user_groups.some((g: { id: number; deactivated: boolean }) => g.id === group && g.deactivated));
    const legacyReg = await g.server.as('cordelia').post('/register', { fetch_event_types: ['realm_user_groups'] });
    assert.ok(!legacyReg.body.realm_user_groups.some((g: { id: number }) => g.id === group));
    const modernReg = await g.server.as('cordelia').post('/register', { fetch_event_types: ['realm_user_groups'], client_capabilities: { include_deactivated_groups: true } });
    assert.ok(modernReg.body.realm_user_groups.some((g: { id: number; deactivated: boolean }) => g.id === group && g.deactivated));

    refused(await create('hamlet', { can_mention_group: group }), 'User group is deactivated.');
    refused(await create('hamlet', { can_mention_group: { direct_members: [id('hamlet')], direct_subgroups: [group] } }), 'User group is deactivated.');
    // Every setting stays editable; clients that do not know deactivated groups hear nothing of it.
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${group}`, { name: `Dormant ${group}`, can_join_group: { new: g.system['role:members'] } }));
    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${group}`, { deactivated: true }));
    assert.deepEqual(await legacy.take('cordelia', 'user_group'), []);
    assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => e.data), [{ name: `Dormant ${group}` }, { can_join_group: g.system['role:members'] }]);

    assertSuccess(await g.server.as('hamlet').patch(`/user_groups/${group}`, { deactivated: false }));
    const back = await legacy.take('cordelia', 'user_group');
    assert.deepEqual(back.map((e) => [e.op, e.group?.id, e.group?.name, e.group?.deactivated]), [['add', group, `Dormant ${group}`, false]]);
    assert.ok(!('for_reactivation' in back[0]) && !('_for_reactivation' in back[0]));
    assert.deepEqual((await modern.take('iago', 'user_group')).map((e) => [e.op, e.data]), [['update', { deactivated: false }]]);
    assert.ok((await g.server.as('hamlet').get('/user_groups')).body.user_groups.some((g: { id: number }) => g.id === group));
    const user = await created('hamlet', { can_mention_group: group });
    assert.ok(user, 'usable again after reactivation');
  });
});

test('group mentions mention members, as can_mention_group allows', async () => {
  const name = `Actors ${++n}`;
  const open = await g.server.as('hamlet').post('/user_groups/create', { name, description: '', members: [id('cordelia')], can_mention_group: g.system['role:everyone'] });
  const closed = await g.server.as('hamlet').post('/user_groups/create', { name: `Closed ${n}`, description: '', members: [id('cordelia')], can_mention_group: g.system['role:nobody'] });
  assertSuccess(open);
  assertSuccess(closed);
  await g.server.as('shiva').post('/users/me/subscriptions', { subscriptions: [{ name: 'Stage' }], principals: [id('shiva'), id('cordelia')] });
  const sent = await g.server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @*${name}*` });
  assert.equal(sent.status, 200, sent.text);
  const msg = await g.server.as('cordelia').get(`/messages/${sent.body.id}`);
  assert.ok(msg.body.message.flags.includes('mentioned'));
  assert.match(msg.body.message.content, /user-group-mention/);
  refused(await g.server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @*Closed ${n}*` }), `You are not allowed to mention user group 'Closed ${n}'.`);
  assertSuccess(await g.server.as('shiva').post('/messages', { type: 'stream', to: 'Stage', topic: 'cast', content: `Hello @_*Closed ${n}*` }));
});
