import { Type } from '@sinclair/typebox';
import { accessScheduled, doCreateScheduled, doDeleteScheduled, doEditScheduled } from '../actions/scheduled-messages.js';
import { bool, int, json, oneOf, str } from '../http/params.js';
import { route } from '../http/route.js';

const type = oneOf(['stream', 'channel', 'private', 'direct'] as const);
const to = json(Type.Union([Type.Integer(), Type.Array(Type.Integer())]));

export const scheduledMessageRoutes = [
  route({
    method: 'GET', path: '/scheduled_messages', auth: 'user', summary: "The caller's scheduled messages", params: {},
    handler: async ({ app, user }) => ({ scheduled_messages: await accessScheduled(app, user) }),
  }),
  route({
    method: 'POST', path: '/scheduled_messages', auth: 'user', summary: 'Schedule a message',
    params: { type, to, content: str(), topic: str().optional(), scheduled_delivery_timestamp: int(), read_by_sender: bool().optional() },
    handler: async ({ app, realm, user, params }) => ({
      scheduled_message_id: await doCreateScheduled(app, realm, user, {
        type: params.type, to: params.to, content: params.content, topic: params.topic,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp, readBySender: params.read_by_sender,
      }),
    }),
  }),
  route({
    method: 'PATCH', path: '/scheduled_messages/{scheduled_message_id}', auth: 'user', summary: 'Edit a scheduled message',
    params: { scheduled_message_id: int(), type: type.optional(), to: to.optional(), content: str().optional(), topic: str().optional(), scheduled_delivery_timestamp: int().optional() },
    handler: async ({ app, realm, user, params }) => {
      await doEditScheduled(app, realm, user, params.scheduled_message_id, {
        type: params.type, to: params.to, content: params.content, topic: params.topic, scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
      });
    },
  }),
  route({
    method: 'DELETE', path: '/scheduled_messages/{scheduled_message_id}', auth: 'user', summary: 'Delete a scheduled message', params: { scheduled_message_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteScheduled(app, realm, user, params.scheduled_message_id);
    },
  }),
];
