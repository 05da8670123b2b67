import { doChangeUser, doSetActive } from '../actions/user-roles.js';
import { int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';
import { ProfileDataItems } from './profile-fields.js';

export const userAdminRoutes = [
  route({
    method: 'PATCH', path: '/users/{user_id}', auth: 'user', summary: "Change a user's role, name or profile data (administrators)",
    params: { user_id: int(), role: int().optional(), full_name: str().optional(), profile_data: json(ProfileDataItems, { maxItems: LIMITS.profileFieldsPerRequest }).optional() },
    handler: async ({ app, realm, user, params }) => {
      await doChangeUser(app, realm, user, params.user_id, { role: params.role, fullName: params.full_name, profileData: params.profile_data });
    },
  }),
  route({
    method: 'DELETE', path: '/users/{user_id}', auth: 'user', summary: 'Deactivate a user (administrators)', params: { user_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doSetActive(app, realm, user, params.user_id, false);
    },
  }),
  route({
    method: 'DELETE', path: '/users/me', auth: 'user', summary: 'Deactivate the caller', params: {},
    handler: async ({ app, realm, user }) => {
      await doSetActive(app, realm, user, user.id, false);
    },
  }),
  route({
    method: 'POST', path: '/users/{user_id}/reactivate', auth: 'user', summary: 'Reactivate a user (administrators)', params: { user_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doSetActive(app, realm, user, params.user_id, true);
    },
  }),
];
