// The reference's password reset pages: /accounts/password/reset/ asks for the address (and answers alike
// whatever it is, by way of /accounts/password/reset/done/), /accounts/password/reset/<token>/ sets the new
// password. Answers are pages, never JSON.
import { accessPasswordReset, doRequestPasswordReset, doResetPassword, PASSWORD_RESET_MINUTES, ResetLinkError } from '../actions/password-reset.js';
import { resetConfirmPage, resetDonePage, resetRequestPage, resetSentPage } from '../format/account-pages.js';
import { problemPage } from '../format/pages.js';
import { ApiError } from '../lib/errors.js';
import { crossSite, redirectPage, sendPage } from '../http/html.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';

const fromElsewhere = () => problemPage('Form sent from another site', 'Open the password reset page itself and use it there.');
const badLink = (err: ResetLinkError) => problemPage('Password reset link not valid', err.message);

export const passwordResetRoutes = [
  route({
    method: 'GET', path: '/accounts/password/reset', root: true, page: true, auth: 'none', summary: 'Password reset: the request form', params: {},
    handler: async ({ realm, reply }) => sendPage(reply, 200, resetRequestPage({ realmName: realm.name })),
  }),
  route({
    method: 'POST', path: '/accounts/password/reset', root: true, page: true, auth: 'none', summary: 'Password reset: mail a link to an address',
    params: { email: str().default('') },
    handler: async ({ app, realm, params, req, reply }) => {
      if (crossSite(req)) return sendPage(reply, 403, fromElsewhere());
      try {
        await doRequestPasswordReset(app, realm, params.email, req.ip);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'RATE_LIMIT_HIT') throw err;
        reply.headers(err.headers);
        return sendPage(reply, 429, resetRequestPage({ realmName: realm.name, email: params.email, error: err.message }));
      }
      await redirectPage(reply, 303, '/accounts/password/reset/done/');
    },
  }),
  route({
    method: 'GET', path: '/accounts/password/reset/done', root: true, page: true, auth: 'none', summary: 'Password reset: the link was sent (if the account exists)', params: {},
    handler: async ({ realm, reply }) => sendPage(reply, 200, resetSentPage(realm.name, PASSWORD_RESET_MINUTES)),
  }),
  route({
    method: 'GET', path: '/accounts/password/reset/{token}', root: true, page: true, auth: 'none', summary: 'Password reset: the new password form', params: { token: str() },
    handler: async ({ app, realm, params, reply }) => {
      try {
        const user = await accessPasswordReset(app, realm, params.token);
        await sendPage(reply, 200, resetConfirmPage({ email: user.deliveryEmail }));
      } catch (err) {
        if (!(err instanceof ResetLinkError)) throw err;
        await sendPage(reply, 404, badLink(err));
      }
    },
  }),
  route({
    method: 'POST', path: '/accounts/password/reset/{token}', root: true, page: true, auth: 'none', summary: 'Password reset: set the new password',
    params: { token: str(), new_password: str().default('') },
    handler: async ({ app, realm, params, req, reply }) => {
      if (crossSite(req)) return sendPage(reply, 403, fromElsewhere());
      let email: string | undefined;
      try {
        email = (await accessPasswordReset(app, realm, params.token)).deliveryEmail;
        await doResetPassword(app, realm, params.token, params.new_password);
        await sendPage(reply, 200, resetDonePage());
      } catch (err) {
        if (err instanceof ResetLinkError) return sendPage(reply, 404, badLink(err));
        if (!(err instanceof ApiError) || email === undefined) throw err;
        await sendPage(reply, 400, resetConfirmPage({ email, error: err.message }));
      }
    },
  }),
];
