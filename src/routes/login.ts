// Logging in and out of the web app at the reference's addresses: GET /login/ shows the form, which posts
// `username` (the e-mail) and `password` to /accounts/login/; success opens a session (cookies) and goes on to
// `next` (the app, by default); POST /accounts/logout/ ends it, POST /accounts/logout/everywhere/ all of the user's. Answers are pages or redirects, never JSON.
import { doLogin, doLogout, doLogoutEverywhere } from '../actions/sessions.js';
import { LOGIN_SCRIPT, LOGIN_SCRIPT_PATH, loginPage, problemPage } from '../format/pages.js';
import { ApiError } from '../lib/errors.js';
import { crossSite, redirectPage, safeNext, sendPage } from '../http/html.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';
import { checkCsrf, clearSessionCookies, sessionOf, setSessionCookies } from '../http/session.js';

const FAILED_LOGIN: Record<string, string> = {
  AUTHENTICATION_FAILED: 'Incorrect e-mail address or password.',
  USER_DEACTIVATED: 'Your account has been deactivated.',
  REALM_DEACTIVATED: 'This organization has been deactivated.',
  PASSWORD_AUTH_DISABLED: 'Password authentication is disabled in this organization.',
};

function loginError(err: ApiError): string {
  if (err.code === 'RATE_LIMIT_HIT') {
    const seconds = Math.ceil(Number(err.extra['retry-after'] ?? 60));
    return `Too many failed attempts: try again in ${seconds} seconds.`;
  }
  return FAILED_LOGIN[err.code] ?? err.message;
}

export const loginRoutes = [
  route({
    method: 'GET', path: '/login', root: true, page: true, auth: 'none', summary: 'Web app: the login page', params: { next: str().optional() },
    handler: async ({ app, realm, params, req, reply }) => {
      if (await sessionOf(app, realm, req)) return redirectPage(reply, 302, safeNext(params.next));
      await sendPage(reply, 200, loginPage({ realmName: realm.name, next: safeNext(params.next) }), true);
    },
  }),
  route({
    method: 'GET', path: LOGIN_SCRIPT_PATH, root: true, page: true, auth: 'bare', summary: 'Web app: the login page\'s script', params: {},
    handler: async ({ reply }) => {
      await reply.headers({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type('text/javascript; charset=utf-8').send(LOGIN_SCRIPT);
    },
  }),
  route({
    method: 'POST', path: '/accounts/login', root: true, page: true, auth: 'none', summary: 'Web app: log in with an e-mail and password',
    params: { username: str().default(''), password: str().default(''), next: str().optional() },
    handler: async ({ app, realm, params, req, reply }) => {
      if (crossSite(req)) return sendPage(reply, 403, problemPage('Form sent from another site', 'Open the login page itself and log in there.'));
      const next = safeNext(params.next);
      try {
        const opened = await doLogin(app, realm, params.username, params.password, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
        setSessionCookies(app, req, reply, opened.token, opened.session.csrfToken, opened.maxAgeSeconds);
        await redirectPage(reply, 302, next);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const status = err.code === 'RATE_LIMIT_HIT' ? 429 : 401;
        if (err.code === 'RATE_LIMIT_HIT') reply.headers(err.headers);
        await sendPage(reply, status, loginPage({ realmName: realm.name, next, email: params.username, error: loginError(err) }), true);
      }
    },
  }),
  route({
    method: 'POST', path: '/accounts/logout', root: true, page: true, auth: 'none', summary: 'Web app: log out (ends the session)',
    params: { csrfmiddlewaretoken: str().optional() },
    handler: async ({ app, realm, params, req, reply }) => {
      const found = await sessionOf(app, realm, req);
      if (found) {
        checkCsrf(req, found.session, params.csrfmiddlewaretoken);
        await doLogout(app, found.session);
      }
      clearSessionCookies(app, req, reply);
      await redirectPage(reply, 302, '/login/');
    },
  }),
  // Not in the reference (which has no such action): ends every browser session of the user, this one included.
  // The web app posts it with its X-CSRFToken header, a form with csrfmiddlewaretoken.
  route({
    method: 'POST', path: '/accounts/logout/everywhere', root: true, page: true, auth: 'none', summary: 'Web app: log out of every browser',
    params: { csrfmiddlewaretoken: str().optional() },
    handler: async ({ app, realm, params, req, reply }) => {
      const found = await sessionOf(app, realm, req);
      if (found) {
        checkCsrf(req, found.session, params.csrfmiddlewaretoken);
        await doLogoutEverywhere(app, found.session);
      }
      clearSessionCookies(app, req, reply);
      await redirectPage(reply, 302, '/login/');
    },
  }),
];
