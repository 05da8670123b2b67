import { accessChannel, accessStreamList } from '../actions/subscriptions.js';
import { ApiError } from '../http/errors.js';
import { bool, int, str } from '../http/params.js';
import { route } from '../http/route.js';

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
];
