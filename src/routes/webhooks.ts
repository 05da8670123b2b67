// Incoming webhooks at the reference's address: POST /api/v1/external/{integration}?api_key=…&stream=…[&topic=…].
// The body is the tool's payload; parameters come from the URL (src/http/route.ts `webhook`).
import { doIncomingWebhook } from '../actions/incoming-webhooks.js';
import { MissingArgumentError } from '../lib/errors.js';
import { rawBodies } from '../http/request-values.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';

export const webhookRoutes = [
  route({
    method: 'POST',
    path: '/api/v1/external/{integration}',
    root: true,
    // The caller is required, but named by `api_key` as often as by Basic credentials (src/http/auth.ts
    // authenticateWebhook): without either, the reference's 400 for a missing api_key, not the 401 of routes
    // that take Basic credentials only.
    auth: 'optional',
    webhook: true,
    allowIncomingWebhooks: true,
    summary: 'An incoming webhook: a tool posts its event, the bot posts it in a channel',
    params: {
      integration: str(),
      api_key: str().optional(),
      stream: str().optional(),
      topic: str().optional(),
      branches: str().optional(),
      only_events: str().optional(),
      exclude_events: str().optional(),
      // Alertmanager's choice of the labels that name the topic and describe the alert.
      name: str().optional(),
      desc: str().optional(),
    },
    handler: async ({ app, realm, user, params, req, reply }) => {
      // Never reached without a caller: authenticateWebhook refuses first.
      if (!user) throw new MissingArgumentError('api_key');
      await doIncomingWebhook(app, realm, user, {
        integration: params.integration,
        body: req.body,
        rawBody: rawBodies.get(req),
        headers: req.headers,
        params,
      });
      // The payload's own fields are no parameters: nothing is reported as ignored.
      await reply.type('application/json; charset=utf-8').send({ result: 'success', msg: '' });
    },
  }),
];
