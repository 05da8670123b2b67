import { accessAllUsers, accessUser, checkAdministrator, doCreateUser } from '../actions/users.js';
import { bool, str } from '../http/params.js';
import { route } from '../http/route.js';
import { formatUser } from '../format/users.js';
import { ROLE } from '../store/users.js';

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
    handler: ({ user }) => {
      const { profile_data: _p, bot_type: _b, bot_owner_id: _o, ...me } = formatUser(user, {
        clientGravatar: false,
        includeCustomProfileFields: true,
      });
      return { ...me, profile_data: {} };
    },
  }),
  route({
    method: 'GET',
    path: '/users',
    auth: 'user',
    summary: 'All users of the organization',
    params: formatParams,
    handler: async ({ app, realm, params }) => {
      const users = await accessAllUsers(app, realm);
      const opts = { clientGravatar: params.client_gravatar, includeCustomProfileFields: params.include_custom_profile_fields };
      return { members: users.map((u) => formatUser(u, opts)) };
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}',
    auth: 'user',
    summary: 'One user, by id or by e-mail',
    params: { user_id: str().describe('a user id, or an e-mail address'), ...formatParams },
    handler: async ({ app, realm, params }) => {
      const key = params.user_id;
      const user = await accessUser(app, realm, INTEGER.test(key) ? { id: Number(key) } : { email: key });
      const opts = { clientGravatar: params.client_gravatar, includeCustomProfileFields: params.include_custom_profile_fields };
      return { user: formatUser(user, opts) };
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
