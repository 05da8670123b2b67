// First start in the browser: while the server has no organization, its front page (GET /, and /new/ as the
// reference's organization creation page) offers to create one with its owner; the form, posted from this site
// only, creates both and lands the owner in the web app with a session. The command line's ways stay.
import { doCreateFirstRealm, OrganizationExistsError } from '../actions/realms.js';
import { doOpenSession } from '../actions/sessions.js';
import { firstStartPage } from '../format/account-pages.js';
import { problemPage } from '../format/pages.js';
import { resolveRealmIfAny } from '../http/auth.js';
import { ApiError } from '../lib/errors.js';
import { crossSite, redirectPage, sendPage } from '../http/html.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';
import { setSessionCookies } from '../http/session.js';

const exists = () => problemPage('The organization exists', 'This server already has an organization: log in to it.');

export const firstStartRoutes = [
  route({
    method: 'GET', path: '/new', root: true, page: true, auth: 'bare', summary: 'First start: the page to create the organization', params: {},
    handler: async ({ app, req, reply }) => {
      if (await resolveRealmIfAny(app, req)) return redirectPage(reply, 302, '/');
      await sendPage(reply, 200, firstStartPage({}));
    },
  }),
  route({
    method: 'POST', path: '/new', root: true, page: true, auth: 'bare', summary: 'First start: create the organization and its owner',
    params: { realm_name: str().default(''), full_name: str().default(''), email: str().default(''), password: str().default('') },
    handler: async ({ app, params, req, reply }) => {
      if (crossSite(req)) return sendPage(reply, 403, problemPage('Form sent from another site', 'Open this server\'s own page and create the organization there.'));
      try {
        const { realm, owner } = await doCreateFirstRealm(app, {
          name: params.realm_name, owner: { email: params.email, fullName: params.full_name, password: params.password },
        });
        const opened = await doOpenSession(app, realm, owner);
        setSessionCookies(app, req, reply, opened.token, opened.session.csrfToken, opened.maxAgeSeconds);
        await redirectPage(reply, 303, '/');
      } catch (err) {
        if (err instanceof OrganizationExistsError) return sendPage(reply, 403, exists());
        if (!(err instanceof ApiError)) throw err;
        await sendPage(reply, 400, firstStartPage({ realmName: params.realm_name, fullName: params.full_name, email: params.email, error: err.message }));
      }
    },
  }),
];
