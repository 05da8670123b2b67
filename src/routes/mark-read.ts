import { doMarkAllAsRead, doMarkChannelAsRead, doMarkTopicAsRead } from '../actions/mark-read.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';

export const markReadRoutes = [
  route({
    method: 'POST',
    path: '/mark_all_as_read',
    auth: 'user',
    summary: 'Mark all messages as read (in batches; `complete` false if time ran out)',
    params: {},
    handler: ({ app, realm, user }) => doMarkAllAsRead(app, realm, user),
  }),
  route({
    method: 'POST',
    path: '/mark_stream_as_read',
    auth: 'user',
    summary: "Mark a channel's messages as read",
    params: { stream_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doMarkChannelAsRead(app, realm, user, params.stream_id);
    },
  }),
  route({
    method: 'POST',
    path: '/mark_topic_as_read',
    auth: 'user',
    summary: "Mark a topic's messages as read",
    params: { stream_id: int(), topic_name: str() },
    handler: async ({ app, realm, user, params }) => {
      await doMarkTopicAsRead(app, realm, user, params.stream_id, params.topic_name);
    },
  }),
];
