// GET /integrations/: the administrators' page of incoming-webhook URLs, for a logged-in browser session.
import { accessIntegrationsPage } from '../actions/integrations-page.js';
import { integrationsPage } from '../format/integrations-page.js';
import { redirectPage, sendPage } from '../http/html.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';
import { sessionOf } from '../http/session.js';

export const integrationRoutes = [
  route({
    method: 'GET', path: '/integrations', root: true, page: true, auth: 'none', summary: 'Web app: the incoming-webhook URLs of each integration (administrators)',
    params: { bot: int().optional(), stream: str().optional() },
    // The browser's session only (as the login page reads it): API credentials do not open pages.
    handler: async ({ app, realm, params, req, reply }) => {
      const found = await sessionOf(app, realm, req);
      if (!found) return redirectPage(reply, 302, '/login/?next=/integrations/');
      const view = await accessIntegrationsPage(app, realm, found.user, params.bot, params.stream);
      await sendPage(reply, 200, integrationsPage(realm.name, view));
    },
  }),
];
