import { attachmentsState, doDeleteAttachment } from '../actions/attachments.js';
import { int } from '../http/params.js';
import { route } from '../http/route.js';

export const attachmentRoutes = [
  route({
    method: 'GET',
    path: '/attachments',
    auth: 'user',
    summary: "The caller's uploaded files, with the messages linking to them, and the organization's space in use",
    params: {},
    handler: ({ app, realm, user }) => attachmentsState(app, realm, user),
  }),
  route({
    method: 'DELETE',
    path: '/attachments/{attachment_id}',
    auth: 'user',
    summary: 'Delete one of your uploaded files',
    params: { attachment_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteAttachment(app, realm, user, params.attachment_id);
    },
  }),
];
