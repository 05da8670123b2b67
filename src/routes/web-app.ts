// The web app at `/`: its page for a person with a session (else the login page, which brings them back; on an
// empty server the page that creates the organization, src/routes/first-start.ts), and
// its built files under /static/.
import { firstStartPage } from '../format/account-pages.js';
import { problemPage } from '../format/pages.js';
import { resolveRealmIfAny } from '../http/auth.js';
import { NotFoundError } from '../lib/errors.js';
import { redirectPage, sendPage } from '../http/html.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';
import { sessionOf } from '../http/session.js';
import { sendAppPage, sendAsset, webAsset } from '../http/web-assets.js';

export const webAppRoutes = [
  route({
    method: 'GET', path: '/', root: true, page: true, auth: 'bare', summary: 'Web app', params: {},
    handler: async ({ app, req, reply }) => {
      // An empty server (no organization yet) offers to create one.
      const realm = await resolveRealmIfAny(app, req);
      if (!realm) return sendPage(reply, 200, firstStartPage({}));
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
