import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';

export const playgroundRoutes = [
  route({
    method: 'POST',
    path: '/realm/playgrounds',
    auth: 'user',
    summary: 'Add a code playground (administrators)',
    params: { name: str(), pygments_language: str(), url_template: str() },
    handler: ({ app, realm, user, params }) => doAddPlayground(app, realm, user, params),
  }),
  route({
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    auth: 'user',
    summary: 'Remove a code playground (administrators)',
    params: { playground_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doRemovePlayground(app, realm, user, params.playground_id);
    },
  }),
];
