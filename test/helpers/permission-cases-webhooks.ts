// Incoming webhooks (issue 24). Matrix callers present Basic credentials, which a webhook accepts as well as its
// api_key parameter: everyone of the organization may post through one (the reference lets any key post; its
// message goes out under the caller's own permissions); the owner of another organization, on their own host,
// names a channel id that does not exist there, which a webhook answers with success (the reference's: its owner
// is notified instead); no key at all is the reference's missing argument. The integrations page is for a browser session: without one,
// the login page.
import type { Case, Outcome } from './permission-fixtures.js';

const MISSING_KEY: Outcome = [400, 'REQUEST_VARIABLE_MISSING', "Missing 'api_key' argument"];

export const WEBHOOK_CASES: Case[] = [
  {
    key: 'POST /api/v1/external/{integration}',
    request: (f) => ({ path: '/api/v1/external/slack_incoming', params: { stream: String(f.matrix), topic: 'webhooks', payload: JSON.stringify({ text: 'from a tool' }) } }),
    other: 200, anon: MISSING_KEY,
  },
  { key: 'GET /integrations', request: () => ({ path: '/accounts/../integrations/' }), html: true, success: 302, other: 302, anon: 302 },
];
