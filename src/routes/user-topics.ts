import { doSetTopicVisibility, doUpdateMutedTopic } from '../actions/user-topics.js';
import { int, oneOf, str } from '../http/params.js';
import { route } from '../http/route.js';
import { SERVER_LIMITS } from '../state/realm-data.js';

const topic = str({ maxLength: SERVER_LIMITS.max_topic_length });

export const userTopicRoutes = [
  route({
    method: 'POST',
    path: '/user_topics',
    auth: 'user',
    summary: "Set the caller's visibility policy for a topic: 0 none, 1 muted, 2 unmuted, 3 followed",
    params: { stream_id: int(), topic, visibility_policy: int() },
    handler: async ({ app, realm, user, params }) => {
      await doSetTopicVisibility(app, realm, user, { channel: { id: params.stream_id }, topic: params.topic, visibilityPolicy: params.visibility_policy });
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    auth: 'user',
    summary: 'Mute or unmute a topic (deprecated: POST /user_topics)',
    params: { stream_id: int().optional(), stream: str().optional(), topic, op: oneOf(['add', 'remove'] as const) },
    handler: async ({ app, realm, user, params }) => {
      await doUpdateMutedTopic(app, realm, user, { streamId: params.stream_id, stream: params.stream, topic: params.topic, op: params.op });
    },
  }),
];
