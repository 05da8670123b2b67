// The web app at `/`: its page for a person with a session (else the login page, which brings them back), and
// its built files under /static/.
import { problemPage } from '../format/pages.js';
import { NotFoundError } from '../lib/errors.js';
import { redirectPage, sendPage } from '../http/html.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';
import { sessionOf } from '../http/session.js';
import { sendAppPage, sendAsset, webAsset } from '../http/web-assets.js';

export const webAppRoutes = [
  route({
    method: 'GET', path: '/', root: true, page: true, auth: 'none', summary: 'Web app', params: {},
    handler: async ({ app, realm, req, reply }) => {
      // The view after # stays with the browser across the redirect, and the login page keeps it.
      if (!(await sessionOf(app, realm, req))) return redirectPage(reply, 302, '/login/');
      const page = webAsset('index.html');
      if (!page) return sendPage(reply, 503, problemPage('The web app is not built', 'Run `npm run build` and start the server again.'));
      await sendAppPage(req, reply, page);
    },
  }),
  route({
    method: 'GET', path: '/static/{path*}', root: true, page: true, auth: 'bare', summary: 'Web app: its built files', params: { path: str() },
    handler: async ({ params, req, reply }) => {
      const asset = params.path === 'index.html' ? undefined : webAsset(params.path);
      if (!asset) throw new NotFoundError();
      // Built files are named by their content; the few others (the icon) are checked again each time.
      await sendAsset(req, reply, asset, params.path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  }),
];
