// The events the settings overlay relies on: each one applied to a register snapshot gives the state the
// server's change implies (organization settings, groups, lists of the organization and of the person).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RegisterResponse, ServerEvent } from '../src/api/types';
import { applyEvents } from '../src/data/reduce';
import { fromRegister, type State } from '../src/data/state';
import { canDo, groupMembers } from '../src/data/org';

const ME = 1;
const MIA = 7;
const ADMINS = 10;
const OWNERS = 11;
const MEMBERS = 12;

function snapshot(over: Partial<RegisterResponse> = {}): State {
  const user = (user_id: number, full_name: string, role: number) => ({ user_id, full_name, email: `${full_name.toLowerCase()}@example.com`, is_active: true, is_bot: false, role });
  const group = (id: number, name: string, members: number[], subgroups: number[]) => ({ id, name, description: '', members, direct_subgroup_ids: subgroups, is_system_group: true });
  return fromRegister({
    queue_id: 'q', last_event_id: -1, user_id: ME, email: 'me@example.com', full_name: 'Me', is_admin: false, is_owner: false, is_moderator: false, is_guest: false,
    realm_name: 'Org', realm_url: 'http://x', realm_users: [user(ME, 'Me', 400), user(MIA, 'Mia', 100)], realm_non_active_users: [], cross_realm_bots: [],
    subscriptions: [], unsubscribed: [], never_subscribed: [], unread_msgs: { count: 0, old_unreads_missing: false, mentions: [], streams: [], pms: [], huddles: [] },
    starred_messages: [], recent_private_conversations: [], presences: {}, server_timestamp: 1000, drafts: [], scheduled_messages: [], user_settings: {} as never,
    user_topics: [], realm_emoji: {}, max_message_id: 0,
    realm_description: 'Old', realm_can_invite_users_group: ADMINS,
    realm_user_groups: [group(OWNERS, 'role:owners', [MIA], []), group(ADMINS, 'role:administrators', [], [OWNERS]), group(MEMBERS, 'role:members', [ME], [ADMINS])],
    realm_linkifiers: [], realm_playgrounds: [], realm_default_streams: [], custom_profile_fields: [], alert_words: ['old'], muted_users: [],
    ...over,
  });
}

const ev = (type: string, rest: Record<string, unknown>): ServerEvent => ({ id: 1, type, ...rest });

test('the register snapshot: realm settings without their prefix, groups, lists', () => {
  const s = snapshot();
  assert.equal(s.realmSettings.description, 'Old');
  assert.equal(s.realmSettings.can_invite_users_group, ADMINS);
  assert.equal(s.me.role, 400);
  assert.deepEqual([...groupMembers(s.groups, MEMBERS)].sort(), [ME, MIA]);
  assert.deepEqual(s.alertWords, ['old']);
});

test('realm update and update_dict change the settings; group settings decide who may act', () => {
  let s = snapshot();
  assert.equal(canDo(s, 'can_invite_users_group'), false);
  s = applyEvents(s, [ev('realm', { op: 'update_dict', property: 'default', data: { can_invite_users_group: MEMBERS, description: 'New' } })]);
  assert.equal(s.realmSettings.description, 'New');
  assert.equal(canDo(s, 'can_invite_users_group'), true);
  s = applyEvents(s, [ev('realm', { op: 'update', property: 'name', value: 'Renamed' })]);
  assert.equal(s.realmSettings.name, 'Renamed');
  assert.equal(s.realm.name, 'Renamed');
  // An anonymous group: named members and subgroups.
  s = applyEvents(s, [ev('realm', { op: 'update_dict', property: 'default', data: { can_invite_users_group: { direct_members: [], direct_subgroups: [OWNERS] } } })]);
  assert.equal(canDo(s, 'can_invite_users_group'), false);
});

test('user_group events: add, update, members, subgroups, remove', () => {
  let s = snapshot();
  s = applyEvents(s, [
    ev('user_group', { op: 'add', group: { id: 20, name: 'design', description: '', members: [MIA], direct_subgroup_ids: [], is_system_group: false } }),
    ev('user_group', { op: 'update', group_id: 20, data: { description: 'Designers' } }),
    ev('user_group', { op: 'add_members', group_id: 20, user_ids: [ME] }),
    ev('user_group', { op: 'remove_members', group_id: 20, user_ids: [MIA] }),
    ev('user_group', { op: 'add_subgroups', group_id: 20, direct_subgroup_ids: [OWNERS] }),
  ]);
  const g = s.groups.get(20)!;
  assert.equal(g.description, 'Designers');
  assert.deepEqual(g.members, [ME]);
  assert.deepEqual(g.direct_subgroup_ids, [OWNERS]);
  s = applyEvents(s, [ev('user_group', { op: 'remove_subgroups', group_id: 20, direct_subgroup_ids: [OWNERS] }), ev('user_group', { op: 'remove', group_id: 20 })]);
  assert.equal(s.groups.has(20), false);
});

test('my role changes with realm_user update (and with it what I may do)', () => {
  let s = snapshot();
  s = applyEvents(s, [ev('realm_user', { op: 'update', person: { user_id: ME, role: 200 } })]);
  assert.equal(s.me.isAdmin, true);
  assert.equal(s.me.role, 200);
  assert.equal(s.users.get(ME)!.role, 200);
  s = applyEvents(s, [ev('realm_user', { op: 'update', person: { user_id: ME, custom_profile_field: { id: 3, value: 'Oslo', rendered_value: '<p>Oslo</p>' } } })]);
  assert.equal(s.users.get(ME)!.profile_data![3].value, 'Oslo');
  s = applyEvents(s, [ev('realm_user', { op: 'update', person: { user_id: ME, custom_profile_field: { id: 3, value: null } } })]);
  assert.equal(s.users.get(ME)!.profile_data![3], undefined);
});

test('lists replaced by their events: linkifiers, playgrounds, default channels, profile fields, alert words, muted users', () => {
  const before = snapshot();
  const s = applyEvents(before, [
    ev('realm_linkifiers', { realm_linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' }] }),
    ev('realm_playgrounds', { realm_playgrounds: [{ id: 2, name: 'Rust', pygments_language: 'rust', url_template: 'https://play/{code}' }] }),
    ev('default_streams', { default_streams: [{ stream_id: 42, name: 'design' }] }),
    ev('custom_profile_fields', { fields: [{ id: 3, type: 1, name: 'City', hint: '', field_data: '', order: 1 }] }),
    ev('alert_words', { alert_words: ['lunch'] }),
    ev('muted_users', { muted_users: [{ id: MIA, timestamp: 5 }] }),
    ev('invites_changed', {}),
    ev('attachment', { op: 'remove', attachment: { id: 3 }, upload_space_used: 0 }),
  ]);
  assert.equal(s.linkifiers[0].pattern, '#(?P<id>[0-9]+)');
  assert.equal(s.playgrounds[0].name, 'Rust');
  assert.deepEqual(s.defaultChannels, [42]);
  assert.equal(s.profileFields[0].name, 'City');
  assert.deepEqual(s.alertWords, ['lunch']);
  assert.equal(s.mutedUsers.get(MIA), 5);
  assert.equal(s.invitesVersion, 1);
  assert.equal(s.attachmentsVersion, 1);
  assert.deepEqual(before.alertWords, ['old'], 'the old state is untouched');
});

test('channel folders and bots', () => {
  let s = snapshot({ realm_bots: [] });
  s = applyEvents(s, [
    ev('channel_folder', { op: 'add', channel_folder: { id: 5, name: 'Teams', description: '', is_archived: false } }),
    ev('channel_folder', { op: 'update', channel_folder_id: 5, data: { is_archived: true } }),
    ev('realm_bot', { op: 'add', bot: { user_id: 30, full_name: 'Bot', email: 'b@x', bot_type: 1, is_active: true, api_key: 'k1' } }),
    ev('realm_bot', { op: 'update', bot: { user_id: 30, api_key: 'k2' } }),
  ]);
  assert.equal(s.channelFolders.get(5)!.is_archived, true);
  assert.equal(s.bots.get(30)!.api_key, 'k2');
  s = applyEvents(s, [ev('realm_bot', { op: 'remove', bot: { user_id: 30 } })]);
  assert.equal(s.bots.get(30)!.is_active, false);
  s = applyEvents(s, [ev('realm_bot', { op: 'delete', bot: { user_id: 30 } })]);
  assert.equal(s.bots.has(30), false);
});
