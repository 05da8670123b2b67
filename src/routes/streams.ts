import { Type } from '@sinclair/typebox';
import {
  CHANNEL_GROUP_SETTINGS, type ChannelGroupSetting, doArchiveChannel, doUpdateChannel, type GroupSettingUpdate,
} from '../actions/channel-edit.js';
import { accessChannel, accessChannelTopics, accessStreamList } from '../actions/subscriptions.js';
import { doDeleteTopic } from '../actions/topic-delete.js';
import { accessChannelEmailAddress } from '../actions/email-gateway.js';
import { ApiError } from '../lib/errors.js';
import { bool, int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';

export const streamRoutes = [
  route({
    method: 'GET',
    path: '/streams',
    auth: 'user',
    summary: 'Channels the caller may know of',
    params: {
      include_public: bool().default(true),
      include_web_public: bool().default(false),
      include_subscribed: bool().default(true),
      include_all: bool().default(false).alias('include_all_active'),
      include_default: bool().default(false),
      exclude_archived: bool().default(true),
      include_can_access_content: bool().default(false),
    },
    handler: async ({ app, realm, user, params }) => ({
      streams: await accessStreamList(app, realm, user, {
        includePublic: params.include_public,
        includeWebPublic: params.include_web_public,
        includeSubscribed: params.include_subscribed,
        includeAll: params.include_all,
        includeDefault: params.include_default,
        excludeArchived: params.exclude_archived,
        includeCanAccessContent: params.include_can_access_content,
      }),
    }),
  }),
  route({
    method: 'GET',
    path: '/streams/{stream_id}',
    auth: 'user',
    summary: 'One channel',
    params: { stream_id: int() },
    handler: async ({ app, realm, user, params }) => ({ stream: (await accessChannel(app, realm, user, { id: params.stream_id })).stream }),
  }),
  route({
    method: 'GET',
    path: '/get_stream_id',
    auth: 'user',
    summary: "A channel's id from its name",
    params: { stream: str() },
    handler: async ({ app, realm, user, params }) => {
      const { stream } = await accessChannel(app, realm, user, { name: params.stream });
      return { stream_id: stream.stream_id };
    },
  }),
  route({
    method: 'GET',
    path: '/streams/{stream_id}/members',
    auth: 'user',
    summary: "A channel's subscribers",
    params: { stream_id: int() },
    handler: async ({ app, realm, user, params }) => {
      const { subscribers } = await accessChannel(app, realm, user, { id: params.stream_id });
      if (!subscribers) throw new ApiError('Invalid channel ID');
      return { subscribers };
    },
  }),
  route({
    method: 'PATCH',
    path: '/streams/{stream_id}',
    auth: 'user',
    summary: 'Update a channel',
    params: {
      stream_id: int(),
      description: str().optional(),
      new_name: str().optional(),
      is_private: bool().optional(),
      is_web_public: bool().optional(),
      history_public_to_subscribers: bool().optional(),
      is_default_stream: bool().optional(),
      message_retention_days: json(Type.Union([Type.String(), Type.Integer()]), { raw: true }).optional(),
      is_archived: bool().optional(),
      folder_id: json(Type.Union([Type.Integer(), Type.Null()])).optional(),
      topics_policy: str().optional(),
      ...groupSettingUpdates(),
    },
    handler: async ({ app, realm, user, params }) => {
      const p = params as Record<string, unknown>;
      await doUpdateChannel(app, realm, user, params.stream_id, {
        description: params.description,
        newName: params.new_name,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isDefaultStream: params.is_default_stream,
        messageRetentionDays: params.message_retention_days,
        isArchived: params.is_archived,
        folderId: params.folder_id,
        topicsPolicy: params.topics_policy,
        groupSettings: Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((n) => [n, p[n] as GroupSettingUpdate | undefined])) as Partial<Record<ChannelGroupSetting, GroupSettingUpdate>>,
      }, organizationUrl(app, realm));
    },
  }),
  route({
    method: 'DELETE',
    path: '/streams/{stream_id}',
    auth: 'user',
    summary: 'Archive a channel',
    params: { stream_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doArchiveChannel(app, realm, user, params.stream_id, organizationUrl(app, realm));
    },
  }),
  route({
    method: 'GET',
    path: '/users/me/{stream_id}/topics',
    auth: 'user',
    summary: "A channel's topics, newest first",
    params: { stream_id: int(), allow_empty_topic_name: bool().default(false) },
    handler: async ({ app, realm, user, params }) => ({ topics: await accessChannelTopics(app, realm, user, params.stream_id, params.allow_empty_topic_name) }),
  }),
  route({
    method: 'GET',
    path: '/streams/{stream_id}/email_address',
    auth: 'user',
    summary: "The channel's e-mail gateway address (400 when the server has no gateway)",
    params: { stream_id: int() },
    handler: async ({ app, realm, user, params }) => ({ email: await accessChannelEmailAddress(app, realm, user, params.stream_id) }),
  }),
  route({
    method: 'POST',
    path: '/streams/{stream_id}/delete_topic',
    auth: 'user',
    summary: "Delete a topic's messages (in batches; `complete` false if time ran out)",
    params: { stream_id: int(), topic_name: str() },
    handler: ({ app, realm, user, params }) => doDeleteTopic(app, realm, user, params.stream_id, params.topic_name),
  }),
];

// The update form of a group setting (§2.1): {new, old?}, each value checked by the action. A function, so
// that the declarations above may use it.
function groupSettingUpdates() {
  const update = json(Type.Object({ new: Type.Unknown(), old: Type.Optional(Type.Unknown()) })).optional();
  return Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((name) => [name, update]));
}
