import { doAddSubmessage } from '../actions/submessages.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';

export const submessageRoutes = [
  route({
    method: 'POST',
    path: '/submessage',
    auth: 'user',
    summary: "Add to a message's widget (a vote, an option, a task)",
    params: { message_id: int(), msg_type: str(), content: str() },
    handler: async ({ app, realm, user, params }) => {
      await doAddSubmessage(app, realm, user, params.message_id, params.msg_type, params.content);
    },
  }),
];
