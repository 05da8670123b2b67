// Acknowledged writes that arrive together are all kept. A user's settings, status, onboarding steps and avatar
// name share one stored JSON document, a group's permissions another: each change must be applied to the
// document as it is when the change commits, not as it was when its request began.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { USER_SETTING_DEFAULTS, USER_SETTING_KINDS } from '../src/state/user-settings.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const register = async (types: string[]) => assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(types) }));

test('twelve settings changed at once by twelve requests, with a status and an onboarding step: every change is kept', async () => {
  const flips = Object.entries(USER_SETTING_KINDS)
    .filter(([name, kind]) => kind.kind === 'boolean' && name !== 'presence_enabled')
    .slice(0, 12)
    .map(([name]) => [name, !(USER_SETTING_DEFAULTS as Record<string, unknown>)[name]] as const);
  assert.equal(flips.length, 12);
  const before = await register(['onboarding_steps']);
  const steps = (before.onboarding_steps as { name: string }[]).slice(0, 2).map((s) => s.name);
  assert.equal(steps.length, 2);
  const answers = await Promise.all([
    ...flips.map(([name, value]) => server.as('hamlet').patch('/settings', { [name]: JSON.stringify(value) })),
    server.as('hamlet').post('/users/me/status', { status_text: 'on the battlements' }),
    server.as('hamlet').post('/users/me/status', { emoji_name: 'ghost' }),
    ...steps.map((step) => server.as('hamlet').post('/users/me/onboarding_steps', { onboarding_step: step })),
  ]);
  for (const a of answers) assertSuccess(a);

  const after = await register(['user_settings', 'user_status', 'onboarding_steps']);
  for (const [name, value] of flips) assert.equal(after.user_settings[name], value, name);
  const status = after.user_status[String(server.users.hamlet.id)];
  assert.equal(status.status_text, 'on the battlements');
  assert.equal(status.emoji_name, 'ghost');
  const left = (after.onboarding_steps as { name: string }[]).map((s) => s.name);
  for (const step of steps) assert.ok(!left.includes(step), `${step} stays dismissed`);
});

test("a group's permissions changed at once by several requests: every change is kept", async () => {
  const groups = assertSuccess(await server.as('iago').get('/user_groups')).user_groups as { id: number; name: string }[];
  const members = groups.find((g) => g.name === 'role:members')!.id;
  const id = assertSuccess(await server.as('iago').post('/user_groups/create', {
    name: 'watchmen', description: 'On the platform', members: JSON.stringify([server.users.hamlet.id]),
  })).group_id as number;
  const settings = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_mention_group', 'can_remove_members_group'];
  const answers = await Promise.all(settings.map((s) => server.as('iago').patch(`/user_groups/${id}`, { [s]: JSON.stringify({ new: members }) })));
  for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
  const group = (assertSuccess(await server.as('iago').get('/user_groups')).user_groups as Record<string, unknown>[]).find((g) => g.id === id)!;
  for (const s of settings) assert.equal(group[s], members, s);
});

test("a channel's permissions changed at once by several requests: every change is kept", async () => {
  const groups = assertSuccess(await server.as('iago').get('/user_groups')).user_groups as { id: number; name: string }[];
  const moderators = groups.find((g) => g.name === 'role:moderators')!.id;
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'ramparts' }]) }));
  const id = assertSuccess(await server.as('iago').get('/get_stream_id', { stream: 'ramparts' })).stream_id as number;
  const settings = ['can_delete_any_message_group', 'can_delete_own_message_group', 'can_move_messages_within_channel_group', 'can_resolve_topics_group', 'can_subscribe_group'];
  const answers = await Promise.all(settings.map((s) => server.as('iago').patch(`/streams/${id}`, { [s]: JSON.stringify({ new: moderators }) })));
  for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
  const channel = assertSuccess(await server.as('iago').get(`/streams/${id}`)).stream as Record<string, unknown>;
  for (const s of settings) assert.equal(channel[s], moderators, s);
});
