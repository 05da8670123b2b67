// Incoming webhooks (issue 24). Matrix callers present Basic credentials, which a webhook accepts as well as its
// api_key parameter: everyone of the organization may post through one (the reference lets any key post; its
// message goes out under the caller's own permissions); the owner of another organization, on their own host,
// names a channel id that does not exist there, which a webhook answers with success (the reference's: its owner
// is notified instead); no key at all is the reference's missing argument. The integrations page is for a browser session: without one,
// the login page.
import type { Case, Outcome } from './permission-fixtures.js';

const BAD_CHANNEL: Outcome = [400, 'BAD_REQUEST', 'Invalid channel ID'];
const NO_POSTING: Outcome = [400, 'BAD_REQUEST', "Not authorized to send to channel 'Vault'"];
const MISSING_KEY: Outcome = [400, 'REQUEST_VARIABLE_MISSING', "Missing 'api_key' argument"];

export const WEBHOOK_CASES: Case[] = [
  {
    key: 'POST /api/v1/external/{integration}',
    request: (f) => ({ path: '/api/v1/external/slack_incoming', params: { stream: String(f.matrix), topic: 'webhooks', payload: JSON.stringify({ text: 'from a tool' }) } }),
    other: 200, anon: MISSING_KEY,
  },
  { key: 'GET /integrations', request: () => ({ path: '/accounts/../integrations/' }), html: true, success: 302, other: 302, anon: 302 },
  // The e-mail gateway's address of a channel (the matrix's server sets a gateway domain): for whoever may post
  // there; a private channel one is not in is an invalid channel to those who may not see it.
  { key: 'GET /api/v1/streams/{stream_id}/email_address', request: (f) => ({ path: `/streams/${f.matrix}/email_address` }), other: BAD_CHANNEL },
  {
    key: 'GET /api/v1/streams/{stream_id}/email_address', label: 'a private channel', request: (f) => ({ path: `/streams/${f.vault}/email_address` }),
    ok: [], denied: BAD_CHANNEL, other: BAD_CHANNEL,
    // Administrators may see the channel, but not post in it unsubscribed: the send rule's refusal.
    byRole: { owner: NO_POSTING, admin: NO_POSTING },
  },
];
