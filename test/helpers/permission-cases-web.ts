// The web app's pages and login forms. Matrix callers carry Basic credentials, never a session: the app's page
// sends everyone to the login page, and logging out without a session only clears cookies. Paths outside
// /api/v1 that the matrix does not know as such are spelled through /accounts/.. or /static/.., which the
// client resolves to the page itself.
import { PASSWORD } from './server.js';
import { HUMANS, me, type Case } from './permission-fixtures.js';

const FAILED = 401; // the form again, with its error

export const WEB_CASES: Case[] = [
  { key: 'GET /', request: () => ({ path: '/static/../' }), html: true, success: 302, other: 302, anon: 302 },
  { key: 'GET /login', request: () => ({ path: '/accounts/../login/' }), html: true, other: 200, anon: 200 },
  { key: 'GET /static/login.js', request: () => ({ path: '/static/login.js' }), other: 200, anon: 200 },
  { key: 'GET /static/{path*}', request: () => ({ path: '/static/favicon.svg' }), other: 200, anon: 200 },
  {
    key: 'POST /accounts/login',
    request: (f, who) => ({ path: '/accounts/login/', params: { username: me(f, who).email, password: who === 'anon' ? 'wrong' : PASSWORD } }),
    html: true, ok: HUMANS, success: 302, denied: FAILED, other: 302, anon: FAILED, // bots have no password
  },
  { key: 'POST /accounts/logout', request: () => ({ path: '/accounts/logout/' }), html: true, success: 302, other: 302, anon: 302 },
  { key: 'POST /accounts/logout/everywhere', request: () => ({ path: '/accounts/logout/everywhere/' }), html: true, success: 302, other: 302, anon: 302 },
  // Password reset: anyone may ask (the answer never says whether the address has an account); a bad link is 404.
  { key: 'GET /accounts/password/reset', request: () => ({ path: '/accounts/password/reset/' }), html: true, other: 200, anon: 200 },
  {
    key: 'POST /accounts/password/reset', request: () => ({ path: '/accounts/password/reset/', params: { email: 'nobody-matrix@elsinore.example' } }),
    html: true, success: 303, other: 303, anon: 303,
  },
  { key: 'GET /accounts/password/reset/done', request: () => ({ path: '/accounts/password/reset/done/' }), html: true, other: 200, anon: 200 },
  { key: 'GET /accounts/password/reset/{token}', request: () => ({ path: '/accounts/password/reset/nothing/' }), html: true, success: 404, other: 404, anon: 404 },
  {
    key: 'POST /accounts/password/reset/{token}', request: () => ({ path: '/accounts/password/reset/nothing/', params: { new_password: 'a long new password' } }),
    html: true, success: 404, other: 404, anon: 404,
  },
  // First start: only while the server has no organization, so never here.
  { key: 'GET /new', request: () => ({ path: '/accounts/../new/' }), html: true, success: 302, other: 302, anon: 302 },
  {
    key: 'POST /new', request: () => ({ path: '/accounts/../new/', params: { realm_name: 'Another', full_name: 'X', email: 'x@elsinore.example', password: 'a long password' } }),
    html: true, success: 403, other: 403, anon: 403,
  },
];
