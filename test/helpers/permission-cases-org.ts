// The permission matrix's cases for the organization's people: presence reads, invitation links and the sign-up
// page, reminders, alert words, custom profile fields and data, e-mail domains, new users' default settings and bots.
import { PASSWORD } from './server.js';
import {
  ADMIN, ADMINS, BAD_MESSAGE, HUMANS, MEMBERS_AND_UP, NO_BOTS, NO_GUESTS, NO_USER, OWNER, own, unique, type Case, type Fixtures, type Outcome,
} from './permission-fixtures.js';

const INSUFFICIENT: Outcome = [400, 'BAD_REQUEST', 'Insufficient permission'];
const NO_REMINDER: Outcome = [404, 'BAD_REQUEST', 'Reminder does not exist'];
const ANY_ERROR: Outcome = [400, 'BAD_REQUEST', '*'];
// Guests are refused first, then bots (the reference server's require_member_or_admin).
const MEMBER_OR_ADMIN = { guest: NO_GUESTS, bot: NO_BOTS };
const later = () => Math.floor(Date.now() / 1000) + 3600;

async function cordeliaSeen(f: Fixtures): Promise<number> {
  await f.ok(f.server.as('cordelia').post('/users/me/presence', { status: 'active' }));
  return f.server.users.cordelia.id;
}

const notEditableField = (f: Fixtures) => f.profileField(false);

export const ORG_CASES: Case[] = [
  { key: 'GET /api/v1/realm/presence', request: () => ({ path: '/realm/presence' }) },
  { key: 'GET /api/v1/users/{user_id}/presence', request: async (f) => ({ path: `/users/${await cordeliaSeen(f)}/presence` }), other: NO_USER },
  {
    key: 'GET /api/v1/users/{user_id}/presence', label: 'by e-mail',
    request: async (f) => {
      await cordeliaSeen(f);
      return { path: `/users/${encodeURIComponent(f.server.users.cordelia.email)}/presence` };
    },
    other: NO_USER,
  },

  // Invitation links: administrators create them by default (create_multiuse_invite_group).
  {
    key: 'POST /api/v1/invites/multiuse', request: () => ({ path: '/invites/multiuse', params: { invite_as: 400 } }),
    ok: ADMINS, denied: INSUFFICIENT, byRole: MEMBER_OR_ADMIN,
  },
  { key: 'GET /api/v1/invites', request: () => ({ path: '/invites' }), ok: MEMBERS_AND_UP, byRole: MEMBER_OR_ADMIN },
  {
    key: 'DELETE /api/v1/invites/multiuse/{invite_id}', label: "the owner's link", request: async (f) => ({ path: `/invites/multiuse/${(await f.invite()).id}` }),
    ok: ADMINS, denied: ADMIN, byRole: MEMBER_OR_ADMIN, other: [400, 'BAD_REQUEST', 'No such invitation'],
  },
  // Pages for people without an account: credentials play no part; another organization knows no such link.
  { key: 'GET /join/{key}', request: async (f) => ({ path: `/join/${(await f.invite()).key}/` }), html: true, other: 404, anon: 200 },
  {
    key: 'POST /join/{key}',
    request: async (f) => ({ path: `/join/${(await f.invite()).key}/`, params: { full_name: 'New Person', email: `${unique('joiner')}@zulip.example.com`, password: PASSWORD } }),
    // The newcomer lands in the web app, logged in.
    html: true, success: 303, other: 404, anon: 303,
  },

  { key: 'GET /api/v1/reminders', request: () => ({ path: '/reminders' }) },
  {
    key: 'POST /api/v1/reminders', request: (f) => ({ path: '/reminders', params: { message_id: f.message, scheduled_delivery_timestamp: later() } }),
    other: BAD_MESSAGE,
  },
  {
    key: 'POST /api/v1/reminders', label: 'private channel, not subscribed',
    request: (f) => ({ path: '/reminders', params: { message_id: f.vaultMessage, scheduled_delivery_timestamp: later() } }),
    ok: [], denied: BAD_MESSAGE, other: BAD_MESSAGE,
  },
  {
    key: 'DELETE /api/v1/reminders/{reminder_id}',
    request: async (f, who) => ({ path: `/reminders/${await f.reminder(who === 'other' ? f.server.as('cordelia') : own(f, who))}` }),
    other: NO_REMINDER,
  },
  {
    key: 'DELETE /api/v1/reminders/{reminder_id}', label: "someone else's", request: async (f) => ({ path: `/reminders/${await f.reminder(f.server.as('cordelia'))}` }),
    ok: [], denied: NO_REMINDER, other: NO_REMINDER,
  },

  { key: 'GET /api/v1/users/me/alert_words', request: () => ({ path: '/users/me/alert_words' }) },
  { key: 'POST /api/v1/users/me/alert_words', request: () => ({ path: '/users/me/alert_words', params: { alert_words: [unique('word')] } }) },
  { key: 'DELETE /api/v1/users/me/alert_words', request: () => ({ path: '/users/me/alert_words', params: { alert_words: ['word1'] } }) },

  { key: 'GET /api/v1/realm/profile_fields', request: () => ({ path: '/realm/profile_fields' }) },
  {
    key: 'POST /api/v1/realm/profile_fields', request: () => ({ path: '/realm/profile_fields', params: { field_type: 1, name: unique('Field ') } }),
    ok: ADMINS, denied: ADMIN,
  },
  {
    key: 'PATCH /api/v1/realm/profile_fields',
    request: async (f, who) => ({ path: '/realm/profile_fields', params: { order: ((await f.ok(own(f, who).get('/realm/profile_fields'))).custom_fields as { id: number }[]).map((x) => x.id).reverse() } }),
    ok: ADMINS, denied: ADMIN,
  },
  {
    key: 'PATCH /api/v1/realm/profile_fields/{field_id}', request: async (f) => ({ path: `/realm/profile_fields/${await f.profileField()}`, params: { hint: 'changed' } }),
    ok: ADMINS, denied: ADMIN, other: ANY_ERROR,
  },
  {
    key: 'DELETE /api/v1/realm/profile_fields/{field_id}', request: async (f) => ({ path: `/realm/profile_fields/${await f.profileField()}` }),
    ok: ADMINS, denied: ADMIN, other: ANY_ERROR,
  },
  {
    key: 'PATCH /api/v1/users/me/profile_data', request: async (f) => ({ path: '/users/me/profile_data', params: { data: [{ id: await f.profileField(), value: 'mine' }] } }),
    ok: HUMANS, denied: NO_BOTS, other: ANY_ERROR,
  },
  {
    key: 'PATCH /api/v1/users/me/profile_data', label: 'a field users may not edit',
    request: async (f) => ({ path: '/users/me/profile_data', params: { data: [{ id: await notEditableField(f), value: 'mine' }] } }),
    ok: ADMINS, denied: [400, 'BAD_REQUEST', 'You are not allowed to change this field. Contact an administrator to update it.'], byRole: { bot: NO_BOTS }, other: ANY_ERROR,
  },
  {
    key: 'DELETE /api/v1/users/me/profile_data', request: async (f) => ({ path: '/users/me/profile_data', params: { data: [await f.profileField()] } }),
    ok: HUMANS, denied: NO_BOTS, other: ANY_ERROR,
  },

  // Only owners change the e-mail domains, as they alone change emails_restricted_to_domains.
  { key: 'GET /api/v1/realm/domains', request: () => ({ path: '/realm/domains' }) },
  { key: 'POST /api/v1/realm/domains', request: () => ({ path: '/realm/domains', params: { domain: `${unique('new')}.example.org` } }), ok: ['owner'], denied: OWNER },
  {
    key: 'PATCH /api/v1/realm/domains/{domain}', request: async (f) => ({ path: `/realm/domains/${await f.domain()}`, params: { allow_subdomains: true } }),
    ok: ['owner'], denied: OWNER, other: ANY_ERROR,
  },
  {
    key: 'DELETE /api/v1/realm/domains/{domain}', request: async (f) => ({ path: `/realm/domains/${await f.domain()}` }),
    ok: ['owner'], denied: OWNER, other: ANY_ERROR,
  },

  { key: 'PATCH /api/v1/realm/user_settings_defaults', request: () => ({ path: '/realm/user_settings_defaults', params: { enter_sends: true } }), ok: ADMINS, denied: ADMIN },

  // Bots: owned and administered by members and up (not guests or bots); another's bot only by administrators.
  { key: 'GET /api/v1/bots', request: () => ({ path: '/bots' }), ok: MEMBERS_AND_UP, byRole: MEMBER_OR_ADMIN },
  {
    key: 'POST /api/v1/bots', request: () => ({ path: '/bots', params: { full_name: unique('Bot '), short_name: unique('b') } }),
    ok: MEMBERS_AND_UP, byRole: MEMBER_OR_ADMIN,
  },
  {
    key: 'PATCH /api/v1/bots/{bot_id}', label: "cordelia's bot", request: async (f) => ({ path: `/bots/${await f.bot('cordelia')}`, params: { full_name: unique('Renamed ') } }),
    ok: ADMINS, denied: INSUFFICIENT, byRole: MEMBER_OR_ADMIN, other: [400, 'BAD_REQUEST', 'No such bot'],
  },
  {
    key: 'DELETE /api/v1/bots/{bot_id}', label: "cordelia's bot", request: async (f) => ({ path: `/bots/${await f.bot('cordelia')}` }),
    ok: ADMINS, denied: INSUFFICIENT, byRole: MEMBER_OR_ADMIN, other: [400, 'BAD_REQUEST', 'No such bot'],
  },
  {
    key: 'POST /api/v1/bots/{bot_id}/api_key/regenerate', label: "cordelia's bot", request: async (f) => ({ path: `/bots/${await f.bot('cordelia')}/api_key/regenerate` }),
    ok: ADMINS, denied: INSUFFICIENT, byRole: MEMBER_OR_ADMIN, other: [400, 'BAD_REQUEST', 'No such bot'],
  },

  // Bot storage: every user has their own, as on the reference server.
  { key: 'GET /api/v1/bot_storage', request: () => ({ path: '/bot_storage' }) },
  { key: 'PUT /api/v1/bot_storage', request: () => ({ path: '/bot_storage', params: { storage: { [unique('k')]: 'v' } } }) },
  { key: 'DELETE /api/v1/bot_storage', request: () => ({ path: '/bot_storage' }) },
];
