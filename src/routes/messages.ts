import { Type } from '@sinclair/typebox';
import { doSendMessage } from '../actions/messages-send.js';
import { doRenderMessage } from '../actions/message-render.js';
import { accessMessage } from '../actions/message-access.js';
import { accessReadReceipts } from '../actions/read-receipts.js';
import { accessMatchingMessages, accessMessages, formatMessages, parseNarrow } from '../actions/messages-fetch.js';
import { doUpdateFlags, doUpdateFlagsForNarrow } from '../actions/message-flags.js';
import { doReportMessage, MAX_REPORT_DESCRIPTION_LENGTH } from '../actions/message-report.js';
import { REPORT_MESSAGE_TYPES } from '../state/realm-data.js';
import { organizationUrl } from '../lib/urls.js';
import { bool, int, json, oneOf, str } from '../http/params.js';
import { route } from '../http/route.js';

const flagOp = oneOf(['add', 'remove'] as const);

export const messageRoutes = [
  route({
    method: 'POST',
    path: '/messages',
    auth: 'user',
    allowIncomingWebhooks: true,
    summary: 'Send a message',
    params: {
      type: oneOf(['stream', 'channel', 'private', 'direct'] as const),
      to: json(Type.Unknown(), { raw: true }),
      topic: str().optional().alias('subject'),
      content: str(),
      queue_id: str().optional(),
      local_id: str().optional(),
      read_by_sender: bool().optional(),
    },
    handler: ({ app, realm, user, params }) =>
      doSendMessage(app, realm, user, {
        realmUrl: organizationUrl(app, realm),
        type: params.type === 'stream' || params.type === 'channel' ? 'stream' : 'private',
        to: params.to,
        topic: params.topic,
        content: params.content,
        queueId: params.queue_id,
        localId: params.local_id,
        readBySender: params.read_by_sender,
      }),
  }),
  route({
    method: 'GET',
    path: '/messages',
    auth: 'user',
    summary: 'Messages around an anchor in a narrow, or listed by id',
    params: {
      anchor: str().optional(),
      use_first_unread_anchor: bool().default(false),
      // Required unless message_ids is given (checked by the action, with the reference's error).
      num_before: int({ min: 0 }).optional(),
      num_after: int({ min: 0 }).optional(),
      include_anchor: bool().default(true),
      narrow: json(Type.Array(Type.Unknown())).default([]),
      message_ids: json(Type.Array(Type.Integer({ minimum: 0 }))).optional(),
      apply_markdown: bool().default(true),
      client_gravatar: bool().default(true),
      allow_empty_topic_name: bool().default(false),
    },
    handler: ({ app, realm, user, params }) =>
      accessMessages(app, realm, user, {
        anchor: params.anchor,
        useFirstUnreadAnchor: params.use_first_unread_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        includeAnchor: params.include_anchor,
        narrow: parseNarrow(params.narrow),
        messageIds: params.message_ids,
        applyMarkdown: params.apply_markdown,
        clientGravatar: params.client_gravatar,
        allowEmptyTopicName: params.allow_empty_topic_name,
      }),
  }),
  route({
    method: 'GET',
    path: '/messages/{message_id}',
    auth: 'user',
    summary: 'One message',
    params: { message_id: int(), apply_markdown: bool().default(true), allow_empty_topic_name: bool().default(false) },
    handler: async ({ app, realm, user, params }) => {
      const { message } = await accessMessage(app.db, realm, user, params.message_id);
      const [formatted] = await formatMessages(app, realm, user, [message], {
        applyMarkdown: params.apply_markdown,
        clientGravatar: false,
        allowEmptyTopicName: params.allow_empty_topic_name,
      });
      return { message: formatted, raw_content: message.content };
    },
  }),
  route({
    method: 'GET',
    path: '/messages/{message_id}/read_receipts',
    auth: 'user',
    summary: 'Who has read a message',
    params: { message_id: int({ min: 0 }) },
    handler: async ({ app, realm, user, params }) => ({ user_ids: await accessReadReceipts(app, realm, user, params.message_id) }),
  }),
  route({
    method: 'GET',
    path: '/messages/matches_narrow',
    auth: 'user',
    summary: 'Which of these messages match a narrow',
    params: { msg_ids: json(Type.Array(Type.Integer())), narrow: json(Type.Array(Type.Unknown())) },
    handler: async ({ app, realm, user, params }) => ({
      messages: await accessMatchingMessages(app, realm, user, params.msg_ids, parseNarrow(params.narrow)),
    }),
  }),
  route({
    method: 'POST',
    path: '/messages/flags',
    auth: 'user',
    summary: 'Add or remove a flag on messages',
    params: { messages: json(Type.Array(Type.Integer())), op: flagOp, flag: str() },
    handler: async ({ app, realm, user, params }) => ({ messages: await doUpdateFlags(app, realm, user, params.messages, params.op, params.flag) }),
  }),
  route({
    method: 'POST',
    path: '/messages/flags/narrow',
    auth: 'user',
    summary: 'Add or remove a flag on the messages of a narrow around an anchor',
    params: {
      anchor: str(),
      include_anchor: bool().default(true),
      num_before: int({ min: 0 }),
      num_after: int({ min: 0 }),
      narrow: json(Type.Array(Type.Unknown())).default([]),
      op: flagOp,
      flag: str(),
    },
    handler: ({ app, realm, user, params }) =>
      doUpdateFlagsForNarrow(app, realm, user, {
        anchor: params.anchor,
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: parseNarrow(params.narrow),
        op: params.op,
        flag: params.flag,
      }),
  }),
  route({
    method: 'POST',
    path: '/messages/{message_id}/report',
    auth: 'user',
    summary: 'Report a message to the moderation request channel',
    params: {
      message_id: int(),
      report_type: oneOf(REPORT_MESSAGE_TYPES.map((t) => t.key)),
      description: str({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH }).default(''),
    },
    handler: async ({ app, realm, user, params }) => {
      await doReportMessage(app, realm, user, params.message_id, { reportType: params.report_type, description: params.description }, organizationUrl(app, realm));
    },
  }),
  route({
    method: 'POST',
    path: '/messages/render',
    auth: 'user',
    summary: 'Render Markdown as a message would be',
    params: { content: str() },
    handler: async ({ app, realm, user, params }) => ({ rendered: await doRenderMessage(app, realm, user, params.content, organizationUrl(app, realm)) }),
  }),
];
