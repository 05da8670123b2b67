import { Type } from '@sinclair/typebox';
import { doCreateChannel, doSetSubscriptionProperties, doSubscribe, accessSubscriptionList, accessSubscriptionStatus, type SubscribeInput } from '../actions/subscriptions.js';
import { doUnsubscribe, doUpdateSubscriptions } from '../actions/subscription-changes.js';
import { bool, int, json, str, type Params } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';
import { organizationUrl } from '../lib/urls.js';
import { CHANNEL_GROUP_SETTINGS } from '../actions/channel-edit.js';

const principals = json(Type.Array(Type.Union([Type.String(), Type.Integer()])), { maxItems: LIMITS.principalsPerRequest }).optional();
const groupSettingParams = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((name) => [name, json(Type.Unknown()).optional()]));
const channelsToAdd = json(Type.Array(Type.Object({ name: Type.String(), description: Type.Optional(Type.String()), color: Type.Optional(Type.String()) })), { maxItems: LIMITS.channelsPerRequest });
const channelNames = json(Type.Array(Type.String()), { maxItems: LIMITS.channelsPerRequest });

// What POST (and PATCH's `add`) take besides the list of channels.
const subscribeParams = {
  principals,
  authorization_errors_fatal: bool().default(true),
  announce: bool().default(false),
  invite_only: bool().default(false),
  is_web_public: bool().default(false),
  is_default_stream: bool().default(false),
  history_public_to_subscribers: bool().optional(),
  message_retention_days: json(Type.Union([Type.String(), Type.Integer()]), { raw: true }).optional(),
  topics_policy: str().default('inherit'),
  folder_id: json(Type.Union([Type.Integer(), Type.Null()])).optional(),
  send_new_subscription_messages: bool().default(true),
  ...groupSettingParams,
};

// POST /channels/create takes the creation parameters, with `subscribers` in place of `principals`.
const { principals: _principals, authorization_errors_fatal: _fatal, ...creationParams } = subscribeParams;

function subscribeInput(params: Params<typeof subscribeParams>, subscriptions: SubscribeInput['subscriptions']): SubscribeInput {
  return {
    subscriptions,
    principals: params.principals,
    authorizationErrorsFatal: params.authorization_errors_fatal,
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    isDefaultStream: params.is_default_stream,
    historyPublicToSubscribers: params.history_public_to_subscribers,
    messageRetentionDays: params.message_retention_days,
    topicsPolicy: params.topics_policy,
    folderId: params.folder_id,
    groupSettings: Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((n) => [n, (params as Record<string, unknown>)[n]])),
    announce: params.announce,
    sendNewSubscriptionMessages: params.send_new_subscription_messages,
  };
}

export const subscriptionRoutes = [
  route({
    method: 'POST',
    path: '/users/me/subscriptions',
    auth: 'user',
    summary: 'Subscribe users to channels, creating missing ones',
    params: { subscriptions: channelsToAdd, ...subscribeParams },
    handler: ({ app, realm, user, params }) => doSubscribe(app, realm, user, subscribeInput(params, params.subscriptions), organizationUrl(app, realm)),
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions',
    auth: 'user',
    summary: 'Subscribe to some channels (creating missing ones) and unsubscribe from others, in one change',
    params: { add: channelsToAdd.default([]), delete: channelNames.default([]), ...subscribeParams },
    handler: ({ app, realm, user, params }) => doUpdateSubscriptions(app, realm, user, subscribeInput(params, params.add), params.delete, organizationUrl(app, realm)),
  }),
  route({
    method: 'GET',
    path: '/users/me/subscriptions',
    auth: 'user',
    summary: "The caller's subscriptions",
    params: { include_subscribers: bool().default(false) },
    handler: async ({ app, realm, user, params }) => ({ subscriptions: await accessSubscriptionList(app, realm, user, params.include_subscribers) }),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/subscriptions',
    auth: 'user',
    summary: 'Unsubscribe users from channels',
    params: { subscriptions: channelNames, principals },
    handler: ({ app, realm, user, params }) => doUnsubscribe(app, realm, user, params.subscriptions, params.principals),
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions/{stream_id}',
    auth: 'user',
    summary: 'Change one subscription setting',
    params: { stream_id: int(), property: str(), value: json(Type.Union([Type.Boolean(), Type.String(), Type.Null()]), { raw: true }) },
    handler: async ({ app, realm, user, params }) => {
      await doSetSubscriptionProperties(app, realm, user, [{ stream_id: params.stream_id, property: params.property, value: params.value }]);
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    auth: 'user',
    summary: 'Change several subscription settings',
    params: {
      subscription_data: json(Type.Array(Type.Object({ stream_id: Type.Integer(), property: Type.String(), value: Type.Unknown() })), { maxItems: LIMITS.subscriptionPropertiesPerRequest }),
    },
    handler: async ({ app, realm, user, params }) => {
      await doSetSubscriptionProperties(app, realm, user, params.subscription_data);
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    auth: 'user',
    summary: 'Whether a user is subscribed to a channel',
    params: { user_id: int(), stream_id: int() },
    handler: ({ app, realm, user, params }) => accessSubscriptionStatus(app, realm, user, params.user_id, params.stream_id),
  }),
  route({
    method: 'POST',
    path: '/channels/create',
    auth: 'user',
    summary: 'Create a channel, subscribing exactly the users named',
    params: {
      ...creationParams,
      name: str(),
      description: str().default(''),
      subscribers: json(Type.Array(Type.Integer()), { maxItems: LIMITS.principalsPerRequest }),
    },
    handler: ({ app, realm, user, params }) =>
      doCreateChannel(app, realm, user, {
        ...subscribeInput({ ...params, principals: params.subscribers, authorization_errors_fatal: true }, []), name: params.name, description: params.description,
      }, organizationUrl(app, realm)),
  }),
];
