// The page behind an invitation link: GET shows the sign-up form, POST (the form, submitted to the same address)
// creates the account. Answers are HTML pages, errors included, since a person reads them in a browser.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accessInvitationLink, doJoin, InvitationLinkError } from '../actions/signup.js';
import { joinedPage, joinFormPage, problemPage } from '../format/pages.js';
import { ApiError } from '../http/errors.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';

const LINK_TITLES = { missing: 'Invitation link not found', expired: 'Invitation link expired', revoked: 'Invitation link revoked', deactivated: 'Organization deactivated' };

async function sendPage(reply: FastifyReply, status: number, html: string): Promise<void> {
  // No scripts, no framing, forms only to this site, and the key in the address never leaks to another site as a
  // referrer ('same-origin' rather than 'no-referrer', with which browsers send the form's Origin as null).
  reply.headers({
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  await reply.code(status).type('text/html; charset=utf-8').send(html);
}

// The form posts to its own address: a browser sending it from elsewhere says so in Origin.
function crossSite(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

const linkProblem = (err: InvitationLinkError) => problemPage(LINK_TITLES[err.problem], err.message);

export const signupRoutes = [
  route({
    method: 'GET', path: '/join/{key}', root: true, auth: 'none', summary: 'Sign-up page of an invitation link', params: { key: str() },
    handler: async ({ app, realm, params, reply }) => {
      try {
        const { invitedAs } = await accessInvitationLink(app, realm, params.key);
        await sendPage(reply, 200, joinFormPage({ realmName: realm.name, invitedAs }));
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
      try {
        ({ invitedAs } = await accessInvitationLink(app, realm, params.key));
        const user = await doJoin(app, realm, params.key, { fullName: params.full_name, email: params.email, password: params.password }, url);
        await sendPage(reply, 200, joinedPage({ realmName: realm.name, realmUrl: url, fullName: user.fullName, email: user.email, apiKey: user.apiKey }));
      } catch (err) {
        if (err instanceof InvitationLinkError) return sendPage(reply, err.status, linkProblem(err));
        if (!(err instanceof ApiError) || invitedAs === undefined) throw err;
        await sendPage(reply, 400, joinFormPage({ realmName: realm.name, invitedAs, fullName: params.full_name, email: params.email, error: err.message }));
      }
    },
  }),
];
