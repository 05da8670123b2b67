import { Type } from '@sinclair/typebox';
import { accessBotStorage, doRemoveBotStorage, doUpdateBotStorage } from '../actions/bot-storage.js';
import { json } from '../http/params.js';
import { route } from '../http/route.js';

// `keys` absent or null: every key.
const keys = () => json(Type.Union([Type.Array(Type.String()), Type.Null()])).optional();

export const botStorageRoutes = [
  route({
    method: 'GET', path: '/bot_storage', auth: 'user', summary: "Values of the caller's storage, of some keys or all", params: { keys: keys() },
    handler: async ({ app, user, params }) => ({ storage: await accessBotStorage(app, user, params.keys ?? undefined) }),
  }),
  route({
    method: 'PUT', path: '/bot_storage', auth: 'user', largeBody: true, summary: "Store values under keys in the caller's storage",
    params: { storage: json(Type.Record(Type.String(), Type.String())) },
    handler: async ({ app, user, params }) => {
      await doUpdateBotStorage(app, user, params.storage);
    },
  }),
  route({
    method: 'DELETE', path: '/bot_storage', auth: 'user', summary: "Remove some keys, or all, from the caller's storage", params: { keys: keys() },
    handler: async ({ app, user, params }) => {
      await doRemoveBotStorage(app, user, params.keys ?? undefined);
    },
  }),
];
