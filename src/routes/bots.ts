import { Type } from '@sinclair/typebox';
import { doDeactivateBot, doRegenerateBotKey, doUpdateBot } from '../actions/bot-edit.js';
import { accessOwnBots, doCreateBot } from '../actions/bots.js';
import { bool, int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationHost } from '../lib/urls.js';

// URLs arrive JSON-encoded from the reference web client and raw from others.
const url = () => json(Type.String(), { raw: true });
const configData = () => json(Type.Record(Type.String(), Type.String()));

export const botRoutes = [
  route({
    method: 'GET', path: '/bots', auth: 'user', summary: "The caller's active bots", params: {},
    handler: async ({ app, realm, user }) => ({ bots: await accessOwnBots(app, realm, user) }),
  }),
  route({
    method: 'POST', path: '/bots', auth: 'user', summary: 'Create a bot owned by the caller',
    params: {
      full_name: str(),
      short_name: str(),
      bot_type: int().default(1),
      payload_url: url().default(''),
      service_name: str().optional(),
      config_data: configData().default({}),
      interface_type: int().default(1),
      default_sending_stream: str().optional(),
      default_events_register_stream: str().optional(),
      default_all_public_streams: bool().optional(),
    },
    handler: ({ app, realm, user, params: p }) =>
      doCreateBot(app, realm, user, {
        fullName: p.full_name, shortName: p.short_name, botType: p.bot_type, payloadUrl: p.payload_url, serviceName: p.service_name,
        configData: p.config_data, interfaceType: p.interface_type, defaultSendingStream: p.default_sending_stream,
        defaultEventsRegisterStream: p.default_events_register_stream, defaultAllPublicStreams: p.default_all_public_streams,
      }, organizationHost(app, realm)),
  }),
  route({
    method: 'PATCH', path: '/bots/{bot_id}', auth: 'user', summary: 'Change a bot (its owner or an administrator)',
    params: {
      bot_id: int(),
      full_name: str().optional(),
      role: int().optional(),
      bot_owner_id: int().optional(),
      config_data: configData().optional(),
      service_payload_url: url().optional(),
      service_interface: int().default(1),
      default_sending_stream: str().optional(),
      default_events_register_stream: str().optional(),
      default_all_public_streams: bool().optional(),
    },
    handler: ({ app, realm, user, params: p }) =>
      doUpdateBot(app, realm, user, p.bot_id, {
        fullName: p.full_name, role: p.role, botOwnerId: p.bot_owner_id, configData: p.config_data, servicePayloadUrl: p.service_payload_url,
        serviceInterface: p.service_interface, defaultSendingStream: p.default_sending_stream,
        defaultEventsRegisterStream: p.default_events_register_stream, defaultAllPublicStreams: p.default_all_public_streams,
      }),
  }),
  route({
    method: 'DELETE', path: '/bots/{bot_id}', auth: 'user', summary: 'Deactivate a bot (its owner or an administrator)', params: { bot_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeactivateBot(app, realm, user, params.bot_id);
    },
  }),
  route({
    method: 'POST', path: '/bots/{bot_id}/api_key/regenerate', auth: 'user', summary: "Replace a bot's API key", params: { bot_id: int() },
    handler: async ({ app, realm, user, params }) => ({ api_key: await doRegenerateBotKey(app, realm, user, params.bot_id) }),
  }),
];
