import { Type } from '@sinclair/typebox';
import { doRegister, checkNarrow, type RegisterInput } from '../actions/register.js';
import { bool, int, json, oneOf, type Params } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';

// Shared with GET /events, which registers a queue when called without one.
export const registerParams = {
  apply_markdown: bool().default(false),
  client_gravatar: bool().optional().alias('client_extavatar'),
  include_subscribers: oneOf(['true', 'false', 'partial'] as const).default('false'),
  slim_presence: bool().default(false),
  presence_history_limit_days: int({ min: 0 }).optional(),
  event_types: json(Type.Union([Type.Array(Type.String()), Type.Null()])).optional(),
  all_public_streams: bool().default(false),
  client_capabilities: json(Type.Record(Type.String(), Type.Boolean())).default({}),
  fetch_event_types: json(Type.Union([Type.Array(Type.String()), Type.Null()])).optional(),
  narrow: json(Type.Array(Type.Unknown())).default([]),
  idle_queue_timeout: int().optional(),
};

export function registerInput(p: Params<typeof registerParams>): RegisterInput {
  return {
    applyMarkdown: p.apply_markdown,
    clientGravatar: p.client_gravatar,
    includeSubscribers: p.include_subscribers,
    slimPresence: p.slim_presence,
    presenceHistoryLimitDays: p.presence_history_limit_days,
    eventTypes: p.event_types ?? null,
    fetchEventTypes: p.fetch_event_types,
    allPublicStreams: p.all_public_streams,
    capabilities: p.client_capabilities,
    narrow: checkNarrow(p.narrow),
    idleQueueTimeout: p.idle_queue_timeout,
  };
}

export const registerRoutes = [
  route({
    method: 'POST',
    path: '/register',
    auth: 'optional',
    summary: 'Register an event queue and fetch the initial state',
    params: registerParams,
    handler: ({ app, realm, user, params }) => doRegister(app, realm, user, registerInput(params), organizationUrl(app, realm)),
  }),
];
