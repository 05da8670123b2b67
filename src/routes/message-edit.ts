import { Type } from '@sinclair/typebox';
import { doDeleteMessage } from '../actions/message-delete.js';
import { doUpdateMessage } from '../actions/message-edit.js';
import { accessMessageHistory } from '../actions/message-history.js';
import { doSendEditTyping, doSendTyping } from '../actions/typing.js';
import { InvalidArgumentError } from '../lib/errors.js';
import { bool, int, json, Param, str } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';

// A choice among fixed values, refused as the reference server refuses them: "Invalid <name>".
function literal<const V extends string>(values: readonly V[]): Param<V> {
  return new Param<V>({
    parse: (raw, name) => {
      if (!(values as readonly string[]).includes(raw)) throw new InvalidArgumentError(name, `Invalid ${name}`);
      return raw as V;
    },
    schema: { type: 'string', enum: [...values] },
    required: true,
    hasDefault: false,
    aliases: [],
  });
}

const OPS = ['start', 'stop'] as const;

export const messageEditRoutes = [
  route({
    method: 'PATCH',
    path: '/messages/{message_id}',
    auth: 'user',
    summary: 'Edit a message, or move it (and others of its topic) to another topic or channel',
    params: {
      message_id: int(),
      content: str().optional(),
      topic: str().optional().alias('subject'),
      stream_id: int({ min: 0 }).optional(),
      // Checked by the action, so that an invalid value is refused with the reference text.
      propagate_mode: str().default('change_one'),
      send_notification_to_old_thread: bool().default(false),
      send_notification_to_new_thread: bool().default(true),
      prev_content_sha256: str().optional(),
    },
    handler: ({ app, realm, user, params }) =>
      doUpdateMessage(app, realm, user, params.message_id, {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        sendNotificationToOldThread: params.send_notification_to_old_thread,
        sendNotificationToNewThread: params.send_notification_to_new_thread,
        prevContentSha256: params.prev_content_sha256,
      }, organizationUrl(app, realm)),
  }),
  route({
    method: 'DELETE',
    path: '/messages/{message_id}',
    auth: 'user',
    summary: 'Delete a message',
    params: { message_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteMessage(app, realm, user, params.message_id);
      return {};
    },
  }),
  route({
    method: 'GET',
    path: '/messages/{message_id}/history',
    auth: 'user',
    summary: "A message's edit history",
    params: { message_id: int(), allow_empty_topic_name: bool().default(false) },
    handler: async ({ app, realm, user, params }) => ({
      message_history: await accessMessageHistory(app.db, realm, user, params.message_id, params.allow_empty_topic_name),
    }),
  }),
  route({
    method: 'POST',
    path: '/typing',
    auth: 'user',
    summary: 'Tell others that one is typing, or has stopped',
    params: {
      op: literal(OPS),
      type: literal(['direct', 'stream', 'channel'] as const).default('direct'),
      to: json(Type.Array(Type.Integer())).optional(),
      stream_id: int().optional(),
      topic: str().optional(),
    },
    handler: async ({ app, realm, user, params }) => {
      await doSendTyping(app, realm, user, { op: params.op, type: params.type, to: params.to, streamId: params.stream_id, topic: params.topic });
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/messages/{message_id}/typing',
    auth: 'user',
    summary: 'Tell others that one is editing a message, or has stopped',
    params: { message_id: int(), op: literal(OPS) },
    handler: async ({ app, realm, user, params }) => {
      await doSendEditTyping(app, realm, user, params.message_id, params.op);
      return {};
    },
  }),
];
