import { accessRealmPresence, accessUserPresence, doUpdatePresence } from '../actions/presence.js';
import { bool, int, str } from '../http/params.js';
import { route } from '../http/route.js';

export const presenceRoutes = [
  route({
    method: 'POST',
    path: '/users/me/presence',
    auth: 'user',
    summary: "Report the caller's presence and fetch the organization's",
    params: {
      // Checked by the action, with the reference server's message.
      status: str(),
      ping_only: bool().default(false),
      new_user_input: bool().default(false),
      last_update_id: int({ min: -1 }).optional(),
      history_limit_days: int({ min: 0 }).optional(),
      slim_presence: bool().default(false),
    },
    handler: ({ app, realm, user, params }) =>
      doUpdatePresence(app, realm, user, {
        status: params.status,
        pingOnly: params.ping_only,
        lastUpdateId: params.last_update_id,
        historyLimitDays: params.history_limit_days,
        slimPresence: params.slim_presence,
      }),
  }),
  route({
    method: 'GET',
    path: '/realm/presence',
    auth: 'user',
    summary: "The organization's presence (legacy format)",
    params: {},
    handler: ({ app, realm, user }) => accessRealmPresence(app, realm, user),
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}/presence',
    auth: 'user',
    summary: "One user's presence, by id or API e-mail",
    params: { user_id: str().describe('a user id, or an API e-mail address') },
    handler: ({ app, realm, user, params }) =>
      accessUserPresence(app, realm, user, /^\d+$/.test(params.user_id) ? { id: Number(params.user_id) } : { email: params.user_id }, params.user_id),
  }),
];
