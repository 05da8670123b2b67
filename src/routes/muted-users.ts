import { doMuteUser, doUnmuteUser } from '../actions/muted-users.js';
import { int } from '../http/params.js';
import { route } from '../http/route.js';

export const mutedUserRoutes = [
  route({
    method: 'POST',
    path: '/users/me/muted_users/{muted_user_id}',
    auth: 'user',
    summary: 'Mute a user',
    params: { muted_user_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doMuteUser(app, realm, user, params.muted_user_id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/muted_users/{muted_user_id}',
    auth: 'user',
    summary: 'Unmute a user',
    params: { muted_user_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doUnmuteUser(app, realm, user, params.muted_user_id);
    },
  }),
];
