import { doRegenerateOwnKey } from '../actions/api-keys.js';
import { accessOwnUser, accessUserDirectory, accessUserObject } from '../actions/user-directory.js';
import { checkAdministrator, doCreateUser, ROLE } from '../actions/users.js';
import { bool, str } from '../http/params.js';
import { route } from '../http/route.js';

const formatParams = {
  client_gravatar: bool().default(true),
  include_custom_profile_fields: bool().default(false),
};

const INTEGER = /^\d+$/;

export const userRoutes = [
  route({
    method: 'GET',
    path: '/users/me',
    auth: 'user',
    summary: 'The calling user',
    params: {},
    handler: ({ app, realm, user }) => accessOwnUser(app, realm, user),
  }),
  route({
    method: 'POST',
    path: '/users/me/api_key/regenerate',
    auth: 'user',
    summary: "Replace the caller's API key",
    params: {},
    handler: async ({ app, realm, user }) => ({ api_key: await doRegenerateOwnKey(app, realm, user) }),
  }),
  route({
    method: 'GET',
    path: '/users',
    auth: 'user',
    summary: 'All users of the organization',
    params: formatParams,
    handler: async ({ app, realm, user, params }) => ({
      members: await accessUserDirectory(app, realm, user, {
        clientGravatar: params.client_gravatar,
        includeCustomProfileFields: params.include_custom_profile_fields,
      }),
    }),
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}',
    auth: 'user',
    summary: 'One user, by id or by API e-mail',
    params: { user_id: str().describe('a user id, or an e-mail address'), ...formatParams },
    handler: async ({ app, realm, user, params }) => {
      const key = params.user_id;
      return {
        user: await accessUserObject(app, realm, user, INTEGER.test(key) ? { id: Number(key) } : { email: key }, {
          clientGravatar: params.client_gravatar,
          includeCustomProfileFields: params.include_custom_profile_fields,
        }),
      };
    },
  }),
  route({
    method: 'POST',
    path: '/users',
    auth: 'user',
    summary: 'Create a user (administrators)',
    params: { email: str(), password: str(), full_name: str() },
    handler: async ({ app, realm, user, params }) => {
      checkAdministrator(user);
      const created = await doCreateUser(app, realm, {
        email: params.email,
        password: params.password,
        fullName: params.full_name,
        role: ROLE.member,
      });
      return { user_id: created.id };
    },
  }),
];
