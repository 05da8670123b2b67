import { doAddReaction, doRemoveReaction } from '../actions/reactions.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';

export const reactionRoutes = [
  route({
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    auth: 'user',
    summary: 'Add an emoji reaction',
    params: { message_id: int(), emoji_name: str(), emoji_code: str().optional(), reaction_type: str().optional() },
    handler: async ({ app, realm, user, params }) => {
      await doAddReaction(app, realm, user, params.message_id, { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type });
    },
  }),
  route({
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    auth: 'user',
    summary: 'Remove an emoji reaction',
    params: { message_id: int(), emoji_name: str().optional(), emoji_code: str().optional(), reaction_type: str().optional() },
    handler: async ({ app, realm, user, params }) => {
      await doRemoveReaction(app, realm, user, params.message_id, { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type });
    },
  }),
];
