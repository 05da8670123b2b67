import { Type } from '@sinclair/typebox';
import { accessInvites, doCreateMultiuseInvite, doRevokeMultiuseInvite, MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../actions/invites.js';
import { bool, int, json, str } from '../http/params.js';
import { doEditMultiuseInvite } from '../actions/invite-edit.js';
import { doInviteByEmail, doResendEmailInvite, doRevokeEmailInvite, liveEmailInvites } from '../actions/email-invites.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';
import { LIMITS } from '../lib/limits.js';

const ids = (maxItems: number) => json(Type.Array(Type.Integer()), { maxItems });

export const inviteRoutes = [
  route({
    method: 'POST', path: '/invites/multiuse', auth: 'user', summary: 'Create a reusable invitation link',
    params: {
      invite_expires_in_minutes: json(Type.Union([Type.Integer(), Type.Null()])).optional(),
      invite_as: int().default(400),
      stream_ids: ids(LIMITS.inviteChannelsPerRequest).default([]),
      group_ids: ids(LIMITS.inviteGroupsPerRequest).default([]),
      include_realm_default_subscriptions: bool().default(false),
      welcome_message_custom_text: str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }).optional(),
    },
    handler: async ({ app, realm, user, params }) => ({
      invite_link: await doCreateMultiuseInvite(app, realm, user, {
        expiresInMinutes: params.invite_expires_in_minutes,
        invitedAs: params.invite_as,
        streamIds: params.stream_ids,
        groupIds: params.group_ids,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
        welcomeMessageCustomText: params.welcome_message_custom_text ?? null,
      }, organizationUrl(app, realm)),
    }),
  }),
  route({
    method: 'GET', path: '/invites', auth: 'user', summary: 'Invitations the caller may manage', params: {},
    handler: async ({ app, realm, user }) => ({
      invites: [...(await accessInvites(app, realm, user, organizationUrl(app, realm))), ...(await liveEmailInvites(app, realm, user))],
    }),
  }),
  route({
    method: 'DELETE', path: '/invites/multiuse/{invite_id}', auth: 'user', summary: 'Revoke a reusable invitation link', params: { invite_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doRevokeMultiuseInvite(app, realm, user, params.invite_id);
    },
  }),
  route({
    method: 'PATCH', path: '/invites/multiuse/{invite_id}', auth: 'user', summary: 'Change what a reusable invitation link offers',
    params: {
      invite_id: int(),
      invite_as: int().optional(),
      stream_ids: ids(LIMITS.inviteChannelsPerRequest).optional(),
      group_ids: ids(LIMITS.inviteGroupsPerRequest).optional(),
      include_realm_default_subscriptions: bool().optional(),
      welcome_message_custom_text: str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }).optional(),
    },
    handler: async ({ app, realm, user, params }) => {
      await doEditMultiuseInvite(app, realm, user, params.invite_id, {
        invitedAs: params.invite_as, streamIds: params.stream_ids, groupIds: params.group_ids,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions, welcomeMessageCustomText: params.welcome_message_custom_text,
      });
    },
  }),
  route({
    method: 'POST', path: '/invites', auth: 'user', summary: 'Invite people by e-mail',
    params: {
      invitee_emails: str(),
      invite_expires_in_minutes: json(Type.Union([Type.Integer(), Type.Null()])).optional(),
      invite_as: int().default(400),
      stream_ids: ids(LIMITS.inviteChannelsPerRequest),
      group_ids: ids(LIMITS.inviteGroupsPerRequest).default([]),
      include_realm_default_subscriptions: bool().default(false),
      notify_referrer_on_join: bool().default(true),
      welcome_message_custom_text: str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }).optional(),
    },
    handler: async ({ app, realm, user, params }) => {
      await doInviteByEmail(app, realm, user, {
        inviteeEmails: params.invitee_emails, expiresInMinutes: params.invite_expires_in_minutes, invitedAs: params.invite_as, streamIds: params.stream_ids,
        groupIds: params.group_ids, includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions, notifyReferrerOnJoin: params.notify_referrer_on_join,
        welcomeMessageCustomText: params.welcome_message_custom_text ?? null,
      });
    },
  }),
  route({
    method: 'DELETE', path: '/invites/{invite_id}', auth: 'user', summary: 'Revoke an e-mail invitation', params: { invite_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doRevokeEmailInvite(app, realm, user, params.invite_id);
    },
  }),
  route({
    method: 'POST', path: '/invites/{invite_id}/resend', auth: 'user', summary: 'Send an e-mail invitation again', params: { invite_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doResendEmailInvite(app, realm, user, params.invite_id);
    },
  }),
];
