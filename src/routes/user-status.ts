import { accessUserStatus, doUpdateStatus } from '../actions/user-status.js';
import { bool, int, str } from '../http/params.js';
import { route } from '../http/route.js';

export const userStatusRoutes = [
  route({
    method: 'POST',
    path: '/users/me/status',
    auth: 'user',
    summary: "Update the caller's status",
    params: {
      // Trimmed before its length is checked, by the action.
      status_text: str().optional(),
      emoji_name: str().optional(),
      emoji_code: str().optional(),
      reaction_type: str().optional(),
      away: bool().optional(),
    },
    handler: async ({ app, realm, user, params }) => {
      await doUpdateStatus(app, realm, user, {
        statusText: params.status_text, emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type, away: params.away,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}/status',
    auth: 'user',
    summary: "A user's status",
    params: { user_id: int() },
    handler: ({ app, realm, user, params }) => accessUserStatus(app, realm, user, params.user_id),
  }),
];
