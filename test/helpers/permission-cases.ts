// The permission matrix's explicit expectations: for each declared endpoint, a valid request for a given caller
// and the outcome each kind of caller gets. Roles not listed in `ok` get `denied`; `other` is the outcome for the
// owner of another organization calling on their own host with this organization's ids (default: as the owner,
// for requests that name nothing of this organization); `anon` is for endpoints that take no credentials.
import { PASSWORD } from './server.js';
import {
  ADMIN, ADMINS, BAD_MESSAGE, Fixtures, HUMANS, me, NO_BOTS, NO_GUESTS, NO_USER, NOT_GUEST, own, PNG, unique, type Case, type Caller, type Outcome,
} from './permission-fixtures.js';
import { FILE_CASES } from './permission-cases-files.js';
import { ORG_CASES } from './permission-cases-org.js';
import { MOBILE_CASES } from './permission-cases-mobile.js';
import { WEB_CASES } from './permission-cases-web.js';
import { WEBHOOK_CASES } from './permission-cases-webhooks.js';

export { Fixtures, ROLES, sendForm, sendTus, type Case, type Caller, type Outcome, type Req, type Role } from './permission-fixtures.js';

const BAD_CHANNEL: Outcome = [400, 'BAD_REQUEST', 'Invalid channel ID'];
const BAD_GROUP: Outcome = [400, 'BAD_REQUEST', 'Invalid user group'];
const NO_LINKIFIER: Outcome = [400, 'BAD_REQUEST', 'Linkifier not found.'];
const CANNOT_ADMINISTER: Outcome = [400, 'CANNOT_ADMINISTER_CHANNEL', 'You do not have permission to administer this channel.'];

const queue = async (f: Fixtures, who: Caller, as?: 'cordelia') =>
  (await f.ok((as ? f.server.as(as) : own(f, who)).post('/register', { fetch_event_types: [] }))).queue_id as string;

export const CASES: Case[] = [
  { key: 'GET /api/v1/server_settings', request: () => ({ path: '/server_settings' }), anon: 200 },
  { key: 'GET /health', request: () => ({ path: '/health' }), anon: 200 },
  { key: 'GET /api/v1/openapi.json', request: () => ({ path: '/openapi.json' }), anon: 200 },
  {
    key: 'POST /api/v1/fetch_api_key',
    request: (f, who) => ({ path: '/fetch_api_key', params: { username: me(f, who).email, password: who === 'anon' ? 'wrong' : PASSWORD } }),
    ok: ['owner', 'admin', 'moderator', 'member', 'guest'],
    denied: [401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'], // bots have no password
    anon: [401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'],
  },
  { key: 'GET /api/v1/users/me', request: () => ({ path: '/users/me' }) },
  { key: 'GET /api/v1/users', request: () => ({ path: '/users' }) },
  { key: 'GET /api/v1/users/{user_id}', request: (f) => ({ path: `/users/${f.server.users.cordelia.id}` }), other: NO_USER },
  { key: 'GET /api/v1/users/{user_id}', label: 'by e-mail', request: (f) => ({ path: `/users/${encodeURIComponent(f.server.users.cordelia.email)}` }), other: NO_USER },
  {
    key: 'POST /api/v1/users',
    request: () => ({ path: '/users', params: { email: `${unique('new')}@zulip.example.com`, password: PASSWORD, full_name: 'New' } }),
    ok: ADMINS, denied: ADMIN,
  },
  { key: 'POST /api/v1/register', request: () => ({ path: '/register', params: { fetch_event_types: ['realm_user', 'subscription', 'message'] } }),
    anon: [401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required'] },
  { key: 'GET /api/v1/events', request: async (f, who) => ({ path: '/events', params: { queue_id: await queue(f, who), last_event_id: -1, dont_block: true } }) },
  {
    key: 'GET /api/v1/events', label: "someone else's queue", request: async (f) => ({ path: '/events', params: { queue_id: await queue(f, 'member', 'cordelia'), last_event_id: -1, dont_block: true } }),
    ok: [], denied: [400, 'BAD_EVENT_QUEUE_ID', '*'], other: [400, 'BAD_EVENT_QUEUE_ID', '*'],
  },
  { key: 'DELETE /api/v1/events', request: async (f, who) => ({ path: '/events', params: { queue_id: await queue(f, who) } }) },
  {
    key: 'DELETE /api/v1/events', label: "someone else's queue", request: async (f) => ({ path: '/events', params: { queue_id: await queue(f, 'member', 'cordelia') } }),
    ok: [], denied: [400, 'BAD_EVENT_QUEUE_ID', '*'], other: [400, 'BAD_EVENT_QUEUE_ID', '*'],
  },
  {
    key: 'POST /api/v1/users/me/subscriptions', label: 'creating a channel',
    request: () => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: unique('Created ') }] } }),
    ok: NOT_GUEST, denied: NO_GUESTS,
  },
  { key: 'GET /api/v1/users/me/subscriptions', request: () => ({ path: '/users/me/subscriptions' }) },
  {
    key: 'PATCH /api/v1/users/me/subscriptions', label: 'creating a channel and leaving it',
    request: () => {
      const name = unique('Patched ');
      return { path: '/users/me/subscriptions', params: { add: [{ name }], delete: [name] } };
    },
    ok: NOT_GUEST, denied: NO_GUESTS,
  },
  {
    key: 'DELETE /api/v1/users/me/subscriptions',
    request: async (f, who) => {
      const id = await f.channelFor(who);
      const name = (await f.ok(f.server.as('desdemona').get(`/streams/${id}`))).stream.name;
      return { path: '/users/me/subscriptions', params: { subscriptions: [name] } };
    },
    other: [400, 'STREAM_DOES_NOT_EXIST', '*'],
  },
  {
    key: 'PATCH /api/v1/users/me/subscriptions/{stream_id}',
    request: (f) => ({ path: `/users/me/subscriptions/${f.matrix}`, params: { property: 'color', value: '#aabbcc' } }),
    other: [400, 'BAD_REQUEST', '*'],
  },
  {
    key: 'POST /api/v1/users/me/subscriptions/properties',
    request: (f) => ({ path: '/users/me/subscriptions/properties', params: { subscription_data: [{ stream_id: f.matrix, property: 'pin_to_top', value: true }] } }),
    other: [400, 'BAD_REQUEST', '*'],
  },
  { key: 'GET /api/v1/streams', request: () => ({ path: '/streams' }) },
  { key: 'GET /api/v1/streams/{stream_id}', request: (f) => ({ path: `/streams/${f.matrix}` }), other: BAD_CHANNEL },
  { key: 'GET /api/v1/streams/{stream_id}', label: 'private channel, not subscribed', request: (f) => ({ path: `/streams/${f.vault}` }), ok: ADMINS, denied: BAD_CHANNEL, other: BAD_CHANNEL },
  { key: 'GET /api/v1/get_stream_id', request: () => ({ path: '/get_stream_id', params: { stream: 'Matrix' } }), other: [400, 'BAD_REQUEST', "Invalid channel name 'Matrix'"] },
  {
    key: 'GET /api/v1/get_stream_id', label: 'private channel, not subscribed', request: () => ({ path: '/get_stream_id', params: { stream: 'Vault' } }),
    ok: ADMINS, denied: [400, 'BAD_REQUEST', "Invalid channel name 'Vault'"], other: [400, 'BAD_REQUEST', "Invalid channel name 'Vault'"],
  },
  { key: 'GET /api/v1/streams/{stream_id}/members', request: (f) => ({ path: `/streams/${f.matrix}/members` }), other: BAD_CHANNEL },
  { key: 'GET /api/v1/streams/{stream_id}/members', label: 'private channel, not subscribed', request: (f) => ({ path: `/streams/${f.vault}/members` }), ok: ADMINS, denied: BAD_CHANNEL, other: BAD_CHANNEL },
  {
    key: 'PATCH /api/v1/streams/{stream_id}',
    request: async (f, who) => ({ path: `/streams/${await f.channelFor(who)}`, params: { description: 'changed' } }),
    ok: ADMINS, denied: CANNOT_ADMINISTER, other: BAD_CHANNEL,
  },
  {
    key: 'DELETE /api/v1/streams/{stream_id}',
    request: async (f, who) => ({ path: `/streams/${await f.channelFor(who)}` }),
    ok: ADMINS, denied: CANNOT_ADMINISTER, other: BAD_CHANNEL,
  },
  { key: 'GET /api/v1/users/me/{stream_id}/topics', request: (f) => ({ path: `/users/me/${f.matrix}/topics` }), other: BAD_CHANNEL },
  { key: 'GET /api/v1/users/me/{stream_id}/topics', label: 'private channel, not subscribed', request: (f) => ({ path: `/users/me/${f.vault}/topics` }), ok: [], denied: BAD_CHANNEL, other: BAD_CHANNEL },
  {
    key: 'POST /api/v1/messages',
    request: () => ({ path: '/messages', params: { type: 'stream', to: 'Matrix', topic: 'matrix', content: 'hello' } }),
    other: [400, 'STREAM_DOES_NOT_EXIST', "Channel 'Matrix' does not exist"],
  },
  {
    key: 'POST /api/v1/messages', label: 'private channel, not subscribed',
    request: () => ({ path: '/messages', params: { type: 'stream', to: 'Vault', topic: 'matrix', content: 'hello' } }),
    // Administrators see the channel's metadata, so it exists for them; for others it is answered like a missing one.
    ok: [], denied: [400, 'STREAM_DOES_NOT_EXIST', "Channel 'Vault' does not exist"], other: [400, 'STREAM_DOES_NOT_EXIST', "Channel 'Vault' does not exist"],
    byRole: { owner: [400, 'BAD_REQUEST', "Not authorized to send to channel 'Vault'"], admin: [400, 'BAD_REQUEST', "Not authorized to send to channel 'Vault'"] },
  },
  {
    key: 'POST /api/v1/messages', label: 'direct message',
    request: (f) => ({ path: '/messages', params: { type: 'direct', to: [f.server.users.cordelia.id], content: 'hi' } }),
    other: [400, 'BAD_REQUEST', '*'],
  },
  { key: 'GET /api/v1/messages', request: () => ({ path: '/messages', params: { anchor: 'newest', num_before: 10, num_after: 0 } }) },
  { key: 'GET /api/v1/messages/{message_id}', request: (f) => ({ path: `/messages/${f.message}` }), other: BAD_MESSAGE },
  { key: 'GET /api/v1/messages/{message_id}', label: 'private channel, not subscribed', request: (f) => ({ path: `/messages/${f.vaultMessage}` }), ok: [], denied: BAD_MESSAGE, other: BAD_MESSAGE },
  {
    key: 'GET /api/v1/messages/matches_narrow',
    request: (f) => ({ path: '/messages/matches_narrow', params: { msg_ids: [f.message, f.vaultMessage], narrow: [] } }),
    // Only what the caller may read is said to match.
    check: (r, who, f) => {
      const ids = Object.keys(r.body.messages).map(Number);
      if (JSON.stringify(ids) !== JSON.stringify(who === 'other' ? [] : [f.message])) throw new Error(`matches_narrow for ${who}: ${r.text}`);
    },
  },
  { key: 'POST /api/v1/messages/flags', request: (f) => ({ path: '/messages/flags', params: { messages: [f.message], op: 'add', flag: 'starred' } }), other: BAD_MESSAGE },
  {
    key: 'POST /api/v1/messages/flags/narrow',
    request: () => ({ path: '/messages/flags/narrow', params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: [], op: 'add', flag: 'read' } }),
  },
  {
    key: 'POST /api/v1/messages/{message_id}/report',
    request: async (f) => ({ path: `/messages/${await f.send('cordelia', 'Matrix')}/report`, params: { report_type: 'spam' } }),
    other: [400, 'BAD_REQUEST', 'Moderation request channel must be specified to enable message reporting.'],
  },
  { key: 'POST /api/v1/messages/render', request: () => ({ path: '/messages/render', params: { content: '**hi**' } }) },
  { key: 'PATCH /api/v1/settings', request: () => ({ path: '/settings', params: { twenty_four_hour_time: true } }), ok: HUMANS, denied: NO_BOTS },
  { key: 'PATCH /api/v1/settings/display', request: () => ({ path: '/settings/display', params: { twenty_four_hour_time: false } }), ok: HUMANS, denied: NO_BOTS },
  { key: 'PATCH /api/v1/settings/notifications', request: () => ({ path: '/settings/notifications', params: { enable_sounds: false } }), ok: HUMANS, denied: NO_BOTS },
  {
    key: 'GET /accounts/confirm_new_email/{key}', request: () => ({ path: '/accounts/confirm_new_email/no-such-key' }),
    ok: [], denied: [404, 'BAD_REQUEST', '*'], other: [404, 'BAD_REQUEST', '*'], anon: [404, 'BAD_REQUEST', '*'],
  },
  { key: 'POST /api/v1/users/me/presence', request: () => ({ path: '/users/me/presence', params: { status: 'active' } }), ok: HUMANS, denied: NO_BOTS },
  { key: 'GET /api/v1/drafts', request: () => ({ path: '/drafts' }) },
  {
    key: 'POST /api/v1/drafts',
    request: (f) => ({ path: '/drafts', params: { drafts: [{ type: 'stream', to: [f.matrix], topic: 't', content: 'c', timestamp: 1_700_000_000 }] } }),
    other: BAD_CHANNEL,
  },
  {
    key: 'PATCH /api/v1/drafts/{draft_id}',
    request: async (f, who) => ({ path: `/drafts/${await f.draft(own(f, who))}`, params: { draft: { type: '', to: [], topic: '', content: 'x', timestamp: 1_700_000_000 } } }),
  },
  {
    key: 'PATCH /api/v1/drafts/{draft_id}', label: "someone else's draft",
    request: async (f) => ({ path: `/drafts/${await f.draft('cordelia')}`, params: { draft: { type: '', to: [], topic: '', content: 'x', timestamp: 1_700_000_000 } } }),
    ok: [], denied: [404, 'BAD_REQUEST', 'Draft does not exist'], other: [404, 'BAD_REQUEST', 'Draft does not exist'],
  },
  { key: 'DELETE /api/v1/drafts/{draft_id}', request: async (f, who) => ({ path: `/drafts/${await f.draft(own(f, who))}` }) },
  {
    key: 'DELETE /api/v1/drafts/{draft_id}', label: "someone else's draft", request: async (f) => ({ path: `/drafts/${await f.draft('cordelia')}` }),
    ok: [], denied: [404, 'BAD_REQUEST', 'Draft does not exist'], other: [404, 'BAD_REQUEST', 'Draft does not exist'],
  },
  { key: 'GET /api/v1/saved_snippets', request: () => ({ path: '/saved_snippets' }) },
  { key: 'POST /api/v1/saved_snippets', request: () => ({ path: '/saved_snippets', params: { title: 't', content: 'c' } }) },
  { key: 'PATCH /api/v1/saved_snippets/{saved_snippet_id}', request: async (f, who) => ({ path: `/saved_snippets/${await f.snippet(own(f, who))}`, params: { title: 'u' } }) },
  {
    key: 'PATCH /api/v1/saved_snippets/{saved_snippet_id}', label: "someone else's snippet",
    request: async (f) => ({ path: `/saved_snippets/${await f.snippet('cordelia')}`, params: { title: 'u' } }),
    ok: [], denied: [404, 'BAD_REQUEST', 'Saved snippet does not exist.'], other: [404, 'BAD_REQUEST', 'Saved snippet does not exist.'],
  },
  { key: 'DELETE /api/v1/saved_snippets/{saved_snippet_id}', request: async (f, who) => ({ path: `/saved_snippets/${await f.snippet(own(f, who))}` }) },
  {
    key: 'DELETE /api/v1/saved_snippets/{saved_snippet_id}', label: "someone else's snippet", request: async (f) => ({ path: `/saved_snippets/${await f.snippet('cordelia')}` }),
    ok: [], denied: [404, 'BAD_REQUEST', 'Saved snippet does not exist.'], other: [404, 'BAD_REQUEST', 'Saved snippet does not exist.'],
  },
  { key: 'GET /api/v1/navigation_views', request: () => ({ path: '/navigation_views' }) },
  { key: 'POST /api/v1/navigation_views', request: () => ({ path: '/navigation_views', params: { fragment: `narrow/topic/${unique('v')}`, is_pinned: true, name: unique('view ') } }) },
  {
    key: 'PATCH /api/v1/navigation_views/{fragment*}',
    request: async (f, who) => {
      const fragment = `narrow/topic/${unique('v')}`;
      await f.ok(own(f, who).post('/navigation_views', { fragment, is_pinned: true, name: unique('view ') }));
      return { path: `/navigation_views/${encodeURIComponent(fragment)}`, params: { is_pinned: false } };
    },
  },
  {
    key: 'DELETE /api/v1/navigation_views/{fragment*}',
    request: async (f, who) => {
      const fragment = `narrow/topic/${unique('v')}`;
      await f.ok(own(f, who).post('/navigation_views', { fragment, is_pinned: true, name: unique('view ') }));
      return { path: `/navigation_views/${encodeURIComponent(fragment)}` };
    },
  },
  { key: 'GET /api/v1/user_groups', request: () => ({ path: '/user_groups' }) },
  {
    key: 'POST /api/v1/user_groups/create', request: (f, who) => ({ path: '/user_groups/create', params: { name: unique('g'), description: 'd', members: [me(f, who).id] } }),
    ok: NOT_GUEST, denied: NO_GUESTS,
  },
  {
    key: 'PATCH /api/v1/user_groups/{user_group_id}', label: "a group made by another member",
    request: async (f) => ({ path: `/user_groups/${await f.group('cordelia')}`, params: { description: 'new' } }),
    ok: ['owner'], denied: [400, 'BAD_REQUEST', 'Insufficient permission'], byRole: { guest: NO_GUESTS }, other: BAD_GROUP,
  },
  {
    key: 'POST /api/v1/user_groups/{user_group_id}/deactivate', label: 'a group made by another member',
    request: async (f) => ({ path: `/user_groups/${await f.group('cordelia')}/deactivate` }),
    ok: ['owner'], denied: [400, 'BAD_REQUEST', 'Insufficient permission'], byRole: { guest: NO_GUESTS }, other: BAD_GROUP,
  },
  {
    key: 'POST /api/v1/user_groups/{user_group_id}/members', label: 'joining a group made by another member',
    request: async (f, who) => ({ path: `/user_groups/${await f.group('cordelia')}/members`, params: { add: [me(f, who).id] } }),
    ok: ['owner'], denied: [400, 'BAD_REQUEST', 'Insufficient permission'], byRole: { guest: NO_GUESTS }, other: BAD_GROUP,
  },
  { key: 'GET /api/v1/user_groups/{user_group_id}/members', request: async (f) => ({ path: `/user_groups/${await f.group('cordelia')}/members` }), other: BAD_GROUP },
  {
    key: 'GET /api/v1/user_groups/{user_group_id}/members/{user_id}',
    request: async (f) => ({ path: `/user_groups/${await f.group('cordelia')}/members/${f.server.users.cordelia.id}` }), other: BAD_GROUP,
  },
  {
    key: 'POST /api/v1/user_groups/{user_group_id}/subgroups', label: 'a group made by another member',
    request: async (f) => ({ path: `/user_groups/${await f.group('cordelia')}/subgroups`, params: { add: [await f.group('cordelia')] } }),
    ok: ['owner'], denied: [400, 'BAD_REQUEST', 'Insufficient permission'], byRole: { guest: NO_GUESTS }, other: BAD_GROUP,
  },
  { key: 'GET /api/v1/user_groups/{user_group_id}/subgroups', request: async (f) => ({ path: `/user_groups/${await f.group('cordelia')}/subgroups` }), other: BAD_GROUP },
  { key: 'GET /api/v1/scheduled_messages', request: () => ({ path: '/scheduled_messages' }) },
  {
    key: 'POST /api/v1/scheduled_messages',
    request: (f) => ({ path: '/scheduled_messages', params: { type: 'stream', to: f.matrix, topic: 't', content: 'later', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 } }),
    other: [400, 'STREAM_DOES_NOT_EXIST', '*'],
  },
  { key: 'PATCH /api/v1/scheduled_messages/{scheduled_message_id}', request: async (f, who) => ({ path: `/scheduled_messages/${await f.scheduled(own(f, who))}`, params: { content: 'changed' } }) },
  {
    key: 'PATCH /api/v1/scheduled_messages/{scheduled_message_id}', label: "someone else's",
    request: async (f) => ({ path: `/scheduled_messages/${await f.scheduled('cordelia')}`, params: { content: 'changed' } }),
    ok: [], denied: [404, 'BAD_REQUEST', 'Scheduled message does not exist'], other: [404, 'BAD_REQUEST', 'Scheduled message does not exist'],
  },
  { key: 'DELETE /api/v1/scheduled_messages/{scheduled_message_id}', request: async (f, who) => ({ path: `/scheduled_messages/${await f.scheduled(own(f, who))}` }) },
  {
    key: 'DELETE /api/v1/scheduled_messages/{scheduled_message_id}', label: "someone else's", request: async (f) => ({ path: `/scheduled_messages/${await f.scheduled('cordelia')}` }),
    ok: [], denied: [404, 'BAD_REQUEST', 'Scheduled message does not exist'], other: [404, 'BAD_REQUEST', 'Scheduled message does not exist'],
  },
  { key: 'POST /api/v1/users/me/status', request: () => ({ path: '/users/me/status', params: { status_text: 'busy' } }), ok: HUMANS, denied: NO_BOTS },
  { key: 'PATCH /api/v1/users/{user_id}', request: async (f) => ({ path: `/users/${await f.user()}`, params: { full_name: 'Renamed' } }), ok: ADMINS, denied: ADMIN, other: NO_USER },
  { key: 'DELETE /api/v1/users/{user_id}', request: async (f) => ({ path: `/users/${await f.user()}` }), ok: ADMINS, denied: ADMIN, other: NO_USER },
  {
    key: 'POST /api/v1/users/{user_id}/reactivate',
    request: async (f) => {
      const id = await f.user();
      await f.ok(f.server.as('iago').delete(`/users/${id}`));
      return { path: `/users/${id}/reactivate` };
    },
    ok: ADMINS, denied: ADMIN, other: NO_USER,
  },
  { key: 'POST /api/v1/user_topics', request: (f) => ({ path: '/user_topics', params: { stream_id: f.matrix, topic: 'matrix', visibility_policy: 1 } }), other: BAD_CHANNEL },
  {
    key: 'PATCH /api/v1/users/me/subscriptions/muted_topics',
    request: (f) => ({ path: '/users/me/subscriptions/muted_topics', params: { stream_id: f.matrix, topic: 'matrix', op: 'add' } }),
    other: BAD_CHANNEL,
  },
  { key: 'POST /api/v1/channel_folders/create', request: () => ({ path: '/channel_folders/create', params: { name: unique('folder '), description: '' } }), ok: ADMINS, denied: ADMIN },
  { key: 'GET /api/v1/channel_folders', request: () => ({ path: '/channel_folders' }) },
  {
    key: 'PATCH /api/v1/channel_folders/{channel_folder_id}',
    request: async (f) => ({ path: `/channel_folders/${(await f.ok(f.server.as('iago').post('/channel_folders/create', { name: unique('folder '), description: '' }))).channel_folder_id}`, params: { description: 'x' } }),
    ok: ADMINS, denied: ADMIN, other: [400, 'BAD_REQUEST', 'Invalid channel folder ID'],
  },
  { key: 'PATCH /api/v1/realm', request: () => ({ path: '/realm', params: { description: unique('about ') } }), ok: ADMINS, denied: ADMIN },
  {
    key: 'PATCH /api/v1/realm', label: 'an owner-only setting',
    request: (f) => ({ path: '/realm', params: { can_manage_all_groups: { new: f.owners } } }),
    ok: ['owner'], denied: ADMIN, byRole: { admin: [400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'] },
    other: [400, 'BAD_REQUEST', '*'], // a group of this organization
  },
  {
    key: 'PATCH /api/v1/messages/{message_id}', label: 'own message',
    request: async (f, who) => {
      const id = who === 'other' ? f.message : (await f.ok(own(f, who).post('/messages', { type: 'stream', to: 'Matrix', topic: 'matrix', content: 'mine' }))).id;
      return { path: `/messages/${id}`, params: { content: 'edited' } };
    },
    other: BAD_MESSAGE,
  },
  {
    key: 'PATCH /api/v1/messages/{message_id}', label: "content of someone else's message",
    request: (f) => ({ path: `/messages/${f.message}`, params: { content: 'hijacked' } }),
    ok: ['member'], denied: [400, 'BAD_REQUEST', "You don't have permission to edit this message"], other: BAD_MESSAGE,
  },
  {
    key: 'DELETE /api/v1/messages/{message_id}', label: 'own message',
    request: async (f, who) => ({ path: `/messages/${who === 'other' ? f.message : (await f.ok(own(f, who).post('/messages', { type: 'stream', to: 'Matrix', topic: 'matrix', content: 'mine' }))).id}` }),
    other: BAD_MESSAGE,
  },
  {
    key: 'DELETE /api/v1/messages/{message_id}', label: "someone else's message",
    request: async (f) => ({ path: `/messages/${await f.send('cordelia', 'Matrix')}` }),
    ok: ADMINS, denied: [400, 'BAD_REQUEST', "You don't have permission to delete this message"], other: BAD_MESSAGE,
  },
  { key: 'GET /api/v1/messages/{message_id}/history', request: (f) => ({ path: `/messages/${f.message}/history` }), other: BAD_MESSAGE },
  {
    key: 'GET /api/v1/messages/{message_id}/history', label: 'private channel, not subscribed', request: (f) => ({ path: `/messages/${f.vaultMessage}/history` }),
    ok: [], denied: BAD_MESSAGE, other: BAD_MESSAGE,
  },
  { key: 'POST /api/v1/typing', request: (f) => ({ path: '/typing', params: { type: 'stream', stream_id: f.matrix, topic: 'matrix', op: 'start' } }), other: BAD_CHANNEL },
  {
    key: 'POST /api/v1/messages/{message_id}/typing', label: "hamlet's message", request: (f) => ({ path: `/messages/${f.message}/typing`, params: { op: 'start' } }),
    ok: ['member'], denied: [400, 'BAD_REQUEST', "You don't have permission to edit this message"], other: BAD_MESSAGE,
  },
  { key: 'POST /api/v1/messages/{message_id}/reactions', request: async (f) => ({ path: `/messages/${await f.send('cordelia', 'Matrix')}/reactions`, params: { emoji_name: 'octopus' } }), other: BAD_MESSAGE },
  {
    key: 'POST /api/v1/messages/{message_id}/reactions', label: 'private channel, not subscribed',
    request: (f) => ({ path: `/messages/${f.vaultMessage}/reactions`, params: { emoji_name: 'octopus' } }), ok: [], denied: BAD_MESSAGE, other: BAD_MESSAGE,
  },
  {
    key: 'DELETE /api/v1/messages/{message_id}/reactions',
    request: async (f, who) => {
      const id = await f.send('cordelia', 'Matrix');
      if (who !== 'other') await f.ok(own(f, who).post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      return { path: `/messages/${id}/reactions`, params: { emoji_name: 'octopus' } };
    },
    other: BAD_MESSAGE,
  },
  { key: 'GET /api/v1/realm/emoji', request: () => ({ path: '/realm/emoji' }) },
  {
    key: 'POST /api/v1/realm/emoji/{emoji_name}',
    request: () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'e.png');
      return { path: `/realm/emoji/${unique('mine_')}`, multipart: form };
    },
    ok: NOT_GUEST, denied: [400, 'BAD_REQUEST', 'Insufficient permission'],
  },
  {
    key: 'DELETE /api/v1/realm/emoji/{emoji_name}', label: "someone else's emoji",
    request: async (f) => {
      const url = await f.addEmoji('cordelia');
      const list = await f.ok(f.server.as('cordelia').get('/realm/emoji'));
      const name = (Object.values(list.emoji) as { name: string; source_url: string }[]).find((e) => e.source_url === url)!.name;
      return { path: `/realm/emoji/${name}` };
    },
    ok: ADMINS, denied: [400, 'BAD_REQUEST', 'Must be an organization administrator or emoji author'], other: [404, 'BAD_REQUEST', '*'],
  },
  { key: 'GET /user_avatars/{realm_id}/emoji/images/{file_name}', request: (f) => ({ path: f.emojiUrl }), anon: 200 },
  { key: 'GET /static/generated/emoji/emoji_api.json', request: () => ({ path: '/static/generated/emoji/emoji_api.json' }), anon: 200 },
  { key: 'GET /api/v1/realm/linkifiers', request: () => ({ path: '/realm/linkifiers' }) },
  { key: 'GET /api/v1/realm/filters', request: () => ({ path: '/realm/filters' }) },
  {
    key: 'PATCH /api/v1/realm/linkifiers',
    request: async (f, who) => ({ path: '/realm/linkifiers', params: { ordered_linkifier_ids: ((await f.ok(own(f, who).get('/realm/linkifiers'))).linkifiers as { id: number }[]).map((l) => l.id).reverse() } }),
    ok: ADMINS, denied: ADMIN,
  },
  { key: 'POST /api/v1/realm/filters', request: () => ({ path: '/realm/filters', params: { pattern: `${unique('F')}-(?P<id>[0-9]+)`, url_template: 'https://t.example/{id}' } }), ok: ADMINS, denied: ADMIN },
  { key: 'POST /api/v1/realm/linkifiers', request: () => ({ path: '/realm/linkifiers', params: { pattern: `${unique('L')}-(?P<id>[0-9]+)`, url_template: 'https://t.example/{id}' } }), ok: ADMINS, denied: ADMIN },
  ...['filters', 'linkifiers'].flatMap((kind): Case[] => [
    {
      key: `PATCH /api/v1/realm/${kind}/{filter_id}`,
      request: async (f) => ({ path: `/realm/${kind}/${await f.linkifier()}`, params: { pattern: `${unique('P')}-(?P<id>[0-9]+)`, url_template: 'https://t.example/{id}' } }),
      ok: ADMINS, denied: ADMIN, other: NO_LINKIFIER,
    },
    { key: `DELETE /api/v1/realm/${kind}/{filter_id}`, request: async (f) => ({ path: `/realm/${kind}/${await f.linkifier()}` }), ok: ADMINS, denied: ADMIN, other: NO_LINKIFIER },
  ]),
  ...FILE_CASES,
  ...ORG_CASES,
  ...MOBILE_CASES,
  ...WEB_CASES,
  ...WEBHOOK_CASES,
  // Last: it deactivates the callers (the only owner cannot leave).
  {
    key: 'DELETE /api/v1/users/me', request: () => ({ path: '/users/me' }),
    ok: ['admin', 'moderator', 'member', 'guest', 'bot'], denied: [400, 'CANNOT_DEACTIVATE_LAST_USER', '*'], other: [400, 'CANNOT_DEACTIVATE_LAST_USER', '*'],
  },
];
