// The page behind an invitation link: GET shows the sign-up form, POST (the form, submitted to the same address)
// creates the account and opens a session in the web app. Answers are HTML pages, errors included, since a person
// reads them in a browser.
import { accessInvitationLink, doJoin, InvitationLinkError } from '../actions/signup.js';
import { doOpenSession } from '../actions/sessions.js';
import { joinFormPage, problemPage } from '../format/pages.js';
import { ApiError } from '../lib/errors.js';
import { crossSite, redirectPage, sendPage } from '../http/html.js';
import { setSessionCookies } from '../http/session.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';

const LINK_TITLES = {
  missing: 'Invitation link not found', expired: 'Invitation link expired', revoked: 'Invitation link revoked', deactivated: 'Organization deactivated',
  used: 'Invitation already used',
};

const linkProblem = (err: InvitationLinkError) => problemPage(LINK_TITLES[err.problem], err.message);

export const signupRoutes = [
  route({
    method: 'GET', path: '/join/{key}', root: true, auth: 'none', summary: 'Sign-up page of an invitation link', params: { key: str() },
    handler: async ({ app, realm, params, reply }) => {
      try {
        const { invitedAs, email } = await accessInvitationLink(app, realm, params.key);
        await sendPage(reply, 200, joinFormPage({ realmName: realm.name, invitedAs, email, emailFixed: email !== undefined }));
      } catch (err) {
        if (!(err instanceof InvitationLinkError)) throw err;
        await sendPage(reply, err.status, linkProblem(err));
      }
    },
  }),
  route({
    method: 'POST', path: '/join/{key}', root: true, auth: 'none', summary: 'Join through an invitation link',
    params: { key: str(), full_name: str().default(''), email: str().default(''), password: str().default('') },
    handler: async ({ app, realm, params, req, reply }) => {
      if (crossSite(req)) return sendPage(reply, 403, problemPage('Form sent from another site', 'Open the invitation link itself and sign up there.'));
      const url = organizationUrl(app, realm);
      let invitedAs: number | undefined;
      let email: string | undefined;
      try {
        ({ invitedAs, email } = await accessInvitationLink(app, realm, params.key));
        const user = await doJoin(app, realm, params.key, { fullName: params.full_name, email: params.email, password: params.password }, url);
        // The newcomer lands in the web app, logged in.
        const opened = await doOpenSession(app, realm, user);
        setSessionCookies(app, req, reply, opened.token, opened.session.csrfToken, opened.maxAgeSeconds);
        await redirectPage(reply, 303, '/');
      } catch (err) {
        if (err instanceof InvitationLinkError) return sendPage(reply, err.status, linkProblem(err));
        if (!(err instanceof ApiError) || invitedAs === undefined) throw err;
        await sendPage(reply, 400, joinFormPage({ realmName: realm.name, invitedAs, fullName: params.full_name, email: email ?? params.email, emailFixed: email !== undefined, error: err.message }));
      }
    },
  }),
];
