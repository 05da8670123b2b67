import { doAddRealmEmoji, doDeactivateRealmEmoji, readEmojiImage } from '../actions/realm-emoji.js';
import { realmEmojiState } from '../state/realm-emoji.js';
import { emojiApiJson } from '../emoji/index.js';
import { NotFoundError } from '../lib/errors.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';
import { sendImmutableImage } from '../http/send-file.js';

export const realmEmojiRoutes = [
  route({
    method: 'GET',
    path: '/realm/emoji',
    auth: 'user',
    summary: "The organization's custom emoji, deactivated ones included",
    params: {},
    handler: async ({ app, realm }) => ({ emoji: await realmEmojiState(app.db, realm) }),
  }),
  route({
    method: 'POST',
    path: '/realm/emoji/{emoji_name}',
    auth: 'user',
    summary: 'Upload a custom emoji (one image file, multipart)',
    params: { emoji_name: str({ maxLength: 100 }) },
    handler: async ({ app, realm, user, params, files }) => {
      await doAddRealmEmoji(app, realm, user, params.emoji_name, files);
    },
  }),
  route({
    method: 'DELETE',
    path: '/realm/emoji/{emoji_name}',
    auth: 'user',
    summary: 'Deactivate a custom emoji (its author or an administrator)',
    params: { emoji_name: str() },
    handler: async ({ app, realm, user, params }) => {
      await doDeactivateRealmEmoji(app, realm, user, params.emoji_name);
    },
  }),
  // Images are public, as the reference server's are: clients load them into plain <img> elements.
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/emoji/images/{file_name}',
    root: true,
    auth: 'bare',
    summary: 'A custom emoji image',
    params: { realm_id: int({ min: 1 }), file_name: str() },
    handler: async ({ app, params, reply }) => {
      const data = await readEmojiImage(app, params.realm_id, params.file_name);
      if (!data) throw new NotFoundError();
      sendImmutableImage(reply, data, params.file_name);
    },
  }),
  route({
    method: 'GET',
    path: '/static/generated/emoji/emoji_api.json',
    root: true,
    auth: 'bare',
    summary: 'Every Unicode emoji code with its names (register: server_emoji_data_url)',
    params: {},
    handler: ({ reply }) => {
      reply.header('Content-Type', 'application/json; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(emojiApiJson());
    },
  }),
];
