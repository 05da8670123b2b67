import { avatarLocation, defaultAvatarImage, doDeleteAvatar, doUploadAvatar, placeholderAvatarImage, readAvatarImage } from '../actions/avatars.js';
import { doDeleteRealmIcon, doUploadRealmIcon, realmIconFile } from '../actions/realm-icon.js';
import { INACCESSIBLE_USER_AVATAR } from '../format/users.js';
import { NotFoundError } from '../lib/errors.js';
import { int, str } from '../http/params.js';
import { type Ctx, route } from '../http/route.js';
import { sendImmutableImage } from '../http/send-file.js';

type AvatarCtx = Pick<Ctx<{ user_id_or_email: string }, 'optional'>, 'app' | 'realm' | 'user' | 'params' | 'req' | 'reply'>;

// The request's query (a cache-busting version) is carried over, as the reference server does.
const redirect = (medium: boolean) => async ({ app, realm, user, params, req, reply }: AvatarCtx) => {
  const target = await avatarLocation(app, realm, user, params.user_id_or_email, medium);
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
  reply.redirect(query ? `${target}${target.includes('?') ? '&' : '?'}${query}` : target, 302);
};

// Avatar links in user objects are /avatar/...; the contract's paths are under /api/v1. Both work.
const lookups = [false, true].flatMap((root) =>
  [false, true].map((medium) =>
    route({
      method: 'GET',
      path: `/avatar/{user_id_or_email}${medium ? '/medium' : ''}`,
      root,
      auth: 'optional',
      summary: `Redirects to a user's avatar image${medium ? ' (medium size)' : ''}`,
      params: { user_id_or_email: str() },
      handler: redirect(medium),
    }),
  ),
);

export const avatarRoutes = [
  route({
    method: 'POST',
    path: '/users/me/avatar',
    auth: 'user',
    summary: 'Upload an avatar (one image file, multipart)',
    params: {},
    handler: ({ app, realm, user, files }) => doUploadAvatar(app, realm, user, files),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/avatar',
    auth: 'user',
    summary: 'Go back to the default avatar',
    params: {},
    handler: ({ app, realm, user }) => doDeleteAvatar(app, realm, user),
  }),
  route({
    method: 'POST',
    path: '/realm/icon',
    auth: 'user',
    summary: "Upload the organization's icon (one image file, multipart; administrators)",
    params: {},
    handler: ({ app, realm, user, files }) => doUploadRealmIcon(app, realm, user, files),
  }),
  route({
    method: 'DELETE',
    path: '/realm/icon',
    auth: 'user',
    summary: "Go back to the organization's drawn icon (administrators)",
    params: {},
    handler: ({ app, realm, user }) => doDeleteRealmIcon(app, realm, user),
  }),
  ...lookups,
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/{file_name}',
    root: true,
    auth: 'bare',
    summary: 'An uploaded avatar image, 100 or (-medium) 500 pixels square',
    params: { realm_id: int({ min: 1 }), file_name: str() },
    handler: async ({ app, params, reply }) => {
      const data = await readAvatarImage(app, params.realm_id, params.file_name);
      if (!data) throw new NotFoundError();
      sendImmutableImage(reply, data, params.file_name);
    },
  }),
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/default/{file_name}',
    root: true,
    auth: 'bare',
    summary: "A user's default avatar, drawn by the server",
    params: { realm_id: int({ min: 1 }), file_name: str() },
    handler: async ({ params, reply }) => {
      const data = await defaultAvatarImage(params.realm_id, params.file_name);
      if (!data) throw new NotFoundError();
      sendImmutableImage(reply, data, params.file_name);
    },
  }),
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/realm/{file_name}',
    root: true,
    auth: 'bare',
    summary: "The organization's icon: uploaded, or drawn by the server",
    params: { realm_id: int({ min: 1 }), file_name: str() },
    handler: async ({ app, params, reply }) => {
      const m = /^icon(-medium)?\.png$/.exec(params.file_name);
      if (!m) throw new NotFoundError();
      sendImmutableImage(reply, await realmIconFile(app, params.realm_id, !!m[1]), params.file_name);
    },
  }),
  route({
    method: 'GET',
    path: INACCESSIBLE_USER_AVATAR,
    root: true,
    auth: 'bare',
    summary: 'The avatar shown for unknown users',
    params: {},
    handler: async ({ reply }) => sendImmutableImage(reply, await placeholderAvatarImage(), 'avatar.png'),
  }),
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/avatars/{file_name}',
    root: true,
    auth: 'bare',
    summary: 'An uploaded avatar image',
    params: { realm_id: int({ min: 1 }), file_name: str() },
    handler: async ({ app, params, reply }) => {
      const data = await readAvatarImage(app, params.realm_id, params.file_name);
      if (!data) throw new NotFoundError();
      sendImmutableImage(reply, data, params.file_name);
    },
  }),
];
