import { Type } from '@sinclair/typebox';
import { accessInvites, doCreateMultiuseInvite, doRevokeMultiuseInvite, MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../actions/invites.js';
import { bool, int, json, str } from '../http/params.js';
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
    handler: async ({ app, realm, user }) => ({ invites: await accessInvites(app, realm, user, organizationUrl(app, realm)) }),
  }),
  route({
    method: 'DELETE', path: '/invites/multiuse/{invite_id}', auth: 'user', summary: 'Revoke a reusable invitation link', params: { invite_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doRevokeMultiuseInvite(app, realm, user, params.invite_id);
    },
  }),
];
