// The permission matrix's cases for what the mobile app and the rest of the reference API need: muted users,
// devices and push registrations, read receipts, submessages, avatars and icons, marking as read, deleting topics,
// creating channels, default channels and their groups, playgrounds, e-mail invitations and the Welcome Bot preview.
import {
  ADMIN, ADMINS, BAD_MESSAGE, MEMBERS_AND_UP, NO_BOTS, NO_GUESTS, NO_USER, NOT_GUEST, me, own, sendForm, unique, type Case, type Caller,
  type Fixtures, type Outcome,
} from './permission-fixtures.js';

const BAD_CHANNEL: Outcome = [400, 'BAD_REQUEST', 'Invalid channel ID'];
const NO_INVITATION: Outcome = [400, 'BAD_REQUEST', 'No such invitation'];
const NO_DEFAULT_GROUP: Outcome = [400, 'BAD_REQUEST', '*']; // Default channel group with id '<id>' does not exist.
// Guests are refused first, then bots (the reference server's require_member_or_admin).
const MEMBER_OR_ADMIN = { guest: NO_GUESTS, bot: NO_BOTS };

// A decodable image (avatars are resized): one transparent pixel.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
export const avatarForm = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PIXEL)], { type: 'image/png' }), 'me.png');
  return form;
};

// A poll hamlet starts in Matrix, which everyone there may vote in.
async function poll(f: Fixtures): Promise<number> {
  return (await f.ok(f.server.as('hamlet').post('/messages', { type: 'stream', to: 'Matrix', topic: 'polls', content: '/poll Tea or coffee?\nTea\nCoffee' }))).id;
}

// A topic of its own in a channel the caller is subscribed to (for another organization's caller, a channel
// they cannot see).
async function topicFor(f: Fixtures, who: Caller): Promise<{ stream: number; topic: string }> {
  const stream = await f.channelFor(who);
  const topic = unique('topic ');
  await f.ok(f.server.as('desdemona').post('/messages', { type: 'stream', to: stream, topic, content: 'to delete' }));
  return { stream, topic };
}

async function emailInvite(f: Fixtures): Promise<number> {
  const email = `${unique('invitee')}@zulip.example.com`;
  await f.ok(f.server.as('desdemona').post('/invites', { invitee_emails: email, stream_ids: '[]' }));
  const invites = (await f.ok(f.server.as('desdemona').get('/invites'))).invites as { id: number; email?: string }[];
  return invites.find((i) => i.email === email)!.id;
}

async function defaultGroup(f: Fixtures): Promise<number> {
  const name = unique('group ');
  await f.ok(f.server.as('iago').post('/default_stream_groups/create', { group_name: name, description: 'd', stream_names: JSON.stringify(['Matrix']) }));
  const groups = (await f.ok(f.server.as('iago').post('/register', { fetch_event_types: ['default_stream_groups'] }))).realm_default_stream_groups as { id: number; name: string }[];
  return groups.find((g) => g.name === name)!.id;
}

async function playground(f: Fixtures): Promise<number> {
  return (await f.ok(f.server.as('iago').post('/realm/playgrounds', { name: unique('Play '), pygments_language: 'Python', url_template: 'https://play.example/?c={code}' }))).id;
}

async function device(f: Fixtures, who: Caller): Promise<number> {
  return (await f.ok(own(f, who).post('/register_client_device', {}))).device_id;
}

async function avatarPath(f: Fixtures): Promise<string> {
  const cordelia = f.server.as('cordelia');
  await f.ok(sendForm(cordelia, 'POST', '/api/v1/users/me/avatar', avatarForm()));
  const url = (await f.ok(cordelia.get('/users/me'))).avatar_url as string;
  return new URL(url, f.server.url).pathname;
}

const APNS = () => Buffer.from(unique('apns')).toString('hex');

export const MOBILE_CASES: Case[] = [
  // Muting: anyone the caller may see; another organization does not know the user.
  { key: 'POST /api/v1/users/me/muted_users/{muted_user_id}', request: async (f) => ({ path: `/users/me/muted_users/${await f.user()}` }), other: NO_USER },
  {
    key: 'DELETE /api/v1/users/me/muted_users/{muted_user_id}',
    request: async (f, who) => {
      const id = await f.user();
      if (who !== 'other') await f.ok(own(f, who).post(`/users/me/muted_users/${id}`));
      return { path: `/users/me/muted_users/${id}` };
    },
    other: NO_USER,
  },
  { key: 'GET /api/v1/users/{user_id}/status', request: (f) => ({ path: `/users/${f.server.users.cordelia.id}/status` }), other: NO_USER },
  {
    key: 'GET /api/v1/users/{user_id}/subscriptions/{stream_id}', request: (f) => ({ path: `/users/${f.server.users.cordelia.id}/subscriptions/${f.matrix}` }),
    other: NO_USER,
  },
  {
    key: 'GET /api/v1/users/{user_id}/subscriptions/{stream_id}', label: 'a private channel', request: (f) => ({ path: `/users/${f.server.users.cordelia.id}/subscriptions/${f.vault}` }),
    ok: ADMINS, denied: BAD_CHANNEL, other: NO_USER,
  },
  { key: 'POST /api/v1/users/me/onboarding_steps', request: () => ({ path: '/users/me/onboarding_steps', params: { onboarding_step: 'intro_inbox_view_modal' } }) },

  // Devices and push registrations: one's own.
  { key: 'POST /api/v1/register_client_device', request: () => ({ path: '/register_client_device' }) },
  { key: 'POST /api/v1/remove_client_device', request: async (f, who) => ({ path: '/remove_client_device', params: { device_id: await device(f, who) } }) },
  {
    key: 'POST /api/v1/remove_client_device', label: "someone else's", request: async (f) => ({ path: '/remove_client_device', params: { device_id: await device(f, 'member') } }),
    ok: [], denied: [400, 'BAD_REQUEST', 'Invalid device ID'], byRole: { member: 200 }, other: [400, 'BAD_REQUEST', 'Invalid device ID'],
  },
  {
    key: 'POST /api/v1/mobile_push/register',
    request: async (f, who) => ({
      path: '/mobile_push/register',
      params: { device_id: await device(f, who), push_key_id: 1, push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64') },
    }),
  },
  { key: 'POST /api/v1/users/me/apns_device_token', request: () => ({ path: '/users/me/apns_device_token', params: { token: APNS(), appid: 'org.zulip.Zulip' } }) },
  {
    key: 'DELETE /api/v1/users/me/apns_device_token',
    request: async (f, who) => {
      const token = APNS();
      await f.ok(own(f, who).post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' }));
      return { path: '/users/me/apns_device_token', params: { token } };
    },
  },
  { key: 'POST /api/v1/users/me/android_gcm_reg_id', request: () => ({ path: '/users/me/android_gcm_reg_id', params: { token: unique('fcm') } }) },
  {
    key: 'DELETE /api/v1/users/me/android_gcm_reg_id',
    request: async (f, who) => {
      const token = unique('fcm');
      await f.ok(own(f, who).post('/users/me/android_gcm_reg_id', { token }));
      return { path: '/users/me/android_gcm_reg_id', params: { token } };
    },
  },

  // By message id, through the message access rule.
  { key: 'GET /api/v1/messages/{message_id}/read_receipts', request: (f) => ({ path: `/messages/${f.message}/read_receipts` }), other: BAD_MESSAGE },
  {
    key: 'GET /api/v1/messages/{message_id}/read_receipts', label: 'private channel, not subscribed', request: (f) => ({ path: `/messages/${f.vaultMessage}/read_receipts` }),
    ok: [], denied: BAD_MESSAGE, other: BAD_MESSAGE,
  },
  {
    key: 'POST /api/v1/submessage',
    request: async (f) => ({ path: '/submessage', params: { message_id: await poll(f), msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) } }),
    other: BAD_MESSAGE,
  },
  {
    key: 'POST /api/v1/submessage', label: 'private channel, not subscribed',
    request: (f) => ({ path: '/submessage', params: { message_id: f.vaultMessage, msg_type: 'widget', content: '{}' } }),
    ok: [], denied: BAD_MESSAGE, other: BAD_MESSAGE,
  },

  // Images: served to anyone who has the address.
  { key: 'GET /user_avatars/{realm_id}/{file_name}', request: async (f) => ({ path: await avatarPath(f) }), anon: 200 },
  { key: 'GET /user_avatars/{realm_id}/default/{file_name}', request: async (f) => ({ path: `/user_avatars/1/default/${f.server.users.hamlet.id}-medium.png` }), anon: 200 },
  { key: 'GET /user_avatars/{realm_id}/realm/{file_name}', request: () => ({ path: '/user_avatars/1/realm/icon.png' }), anon: 200 },
  { key: 'GET /static/images/unknown-user-avatar.png', request: () => ({ path: '/static/images/unknown-user-avatar.png' }), anon: 200 },

  // Marking as read: one's own flags, in channels the caller may read.
  { key: 'POST /api/v1/mark_all_as_read', request: () => ({ path: '/mark_all_as_read' }) },
  { key: 'POST /api/v1/mark_stream_as_read', request: (f) => ({ path: '/mark_stream_as_read', params: { stream_id: f.matrix } }), other: BAD_CHANNEL },
  {
    key: 'POST /api/v1/mark_stream_as_read', label: 'private channel, not subscribed', request: (f) => ({ path: '/mark_stream_as_read', params: { stream_id: f.vault } }),
    ok: [], denied: BAD_CHANNEL, other: BAD_CHANNEL,
  },
  { key: 'POST /api/v1/mark_topic_as_read', request: (f) => ({ path: '/mark_topic_as_read', params: { stream_id: f.matrix, topic_name: 'matrix' } }), other: BAD_CHANNEL },

  // Channels: creating (not guests, by default), deleting a topic (can_delete_any_message_group: administrators).
  {
    key: 'POST /api/v1/channels/create', request: (f, who) => ({ path: '/channels/create', params: { name: unique('Made '), subscribers: JSON.stringify([me(f, who).id]) } }),
    ok: NOT_GUEST, denied: NO_GUESTS,
  },
  {
    key: 'POST /api/v1/streams/{stream_id}/delete_topic',
    request: async (f, who) => {
      const { stream, topic } = await topicFor(f, who);
      return { path: `/streams/${stream}/delete_topic`, params: { topic_name: topic } };
    },
    ok: ADMINS, denied: ADMIN, other: BAD_CHANNEL,
  },
  {
    key: 'PATCH /api/v1/channel_folders',
    request: async (f) => ({ path: '/channel_folders', params: { order: JSON.stringify(((await f.ok(f.server.as('iago').get('/channel_folders'))).channel_folders as { id: number }[]).map((c) => c.id)) } }),
    ok: ADMINS, denied: ADMIN, other: [400, 'BAD_REQUEST', 'Invalid order mapping.'],
  },

  // Default channels and their groups, playgrounds, the welcome text: administrators.
  { key: 'POST /api/v1/default_streams', request: async (f, who) => ({ path: '/default_streams', params: { stream_id: await f.channelFor(who) } }), ok: ADMINS, denied: ADMIN, other: BAD_CHANNEL },
  {
    key: 'DELETE /api/v1/default_streams',
    request: async (f, who) => {
      const stream = await f.channelFor(who);
      await f.ok(f.server.as('iago').post('/default_streams', { stream_id: stream }));
      return { path: '/default_streams', params: { stream_id: stream } };
    },
    ok: ADMINS, denied: ADMIN, other: BAD_CHANNEL,
  },
  {
    key: 'POST /api/v1/default_stream_groups/create',
    request: () => ({ path: '/default_stream_groups/create', params: { group_name: unique('group '), description: 'd', stream_names: JSON.stringify(['Matrix']) } }),
    ok: ADMINS, denied: ADMIN, other: [400, 'BAD_REQUEST', "Invalid channel name 'Matrix'"],
  },
  {
    key: 'PATCH /api/v1/default_stream_groups/{group_id}', request: async (f) => ({ path: `/default_stream_groups/${await defaultGroup(f)}`, params: { new_description: 'e' } }),
    ok: ADMINS, denied: ADMIN, other: NO_DEFAULT_GROUP,
  },
  {
    key: 'PATCH /api/v1/default_stream_groups/{group_id}/streams',
    request: async (f) => ({ path: `/default_stream_groups/${await defaultGroup(f)}/streams`, params: { op: 'remove', stream_names: JSON.stringify(['Matrix']) } }),
    ok: ADMINS, denied: ADMIN, other: NO_DEFAULT_GROUP,
  },
  { key: 'DELETE /api/v1/default_stream_groups/{group_id}', request: async (f) => ({ path: `/default_stream_groups/${await defaultGroup(f)}` }), ok: ADMINS, denied: ADMIN, other: NO_DEFAULT_GROUP },
  {
    key: 'POST /api/v1/realm/playgrounds',
    request: () => ({ path: '/realm/playgrounds', params: { name: unique('Play '), pygments_language: 'Rust', url_template: 'https://play.example/?c={code}' } }),
    ok: ADMINS, denied: ADMIN,
  },
  { key: 'DELETE /api/v1/realm/playgrounds/{playground_id}', request: async (f) => ({ path: `/realm/playgrounds/${await playground(f)}` }), ok: ADMINS, denied: ADMIN,
    other: [400, 'BAD_REQUEST', 'Invalid playground'],
  },
  {
    key: 'POST /api/v1/realm/test_welcome_bot_custom_message', request: () => ({ path: '/realm/test_welcome_bot_custom_message', params: { welcome_message_custom_text: 'Hi' } }),
    ok: ADMINS, denied: ADMIN,
  },

  // Invitations: by e-mail, members and up (can_invite_users_group); links changed as revoked.
  {
    key: 'POST /api/v1/invites', request: () => ({ path: '/invites', params: { invitee_emails: `${unique('invitee')}@zulip.example.com`, stream_ids: '[]' } }),
    ok: MEMBERS_AND_UP, byRole: MEMBER_OR_ADMIN,
  },
  {
    key: 'DELETE /api/v1/invites/{invite_id}', label: "the owner's invitation", request: async (f) => ({ path: `/invites/${await emailInvite(f)}` }),
    ok: ADMINS, denied: ADMIN, byRole: MEMBER_OR_ADMIN, other: NO_INVITATION,
  },
  {
    key: 'POST /api/v1/invites/{invite_id}/resend', label: "the owner's invitation", request: async (f) => ({ path: `/invites/${await emailInvite(f)}/resend` }),
    ok: ADMINS, denied: ADMIN, byRole: MEMBER_OR_ADMIN, other: NO_INVITATION,
  },
  {
    key: 'PATCH /api/v1/invites/multiuse/{invite_id}', label: "the owner's link", request: async (f) => ({ path: `/invites/multiuse/${(await f.invite()).id}`, params: { invite_as: 600 } }),
    ok: ADMINS, denied: ADMIN, byRole: MEMBER_OR_ADMIN, other: NO_INVITATION,
  },
];
