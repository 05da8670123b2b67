// Incoming webhooks (/api/v1/external/{integration}): a tool's request, authenticated as a bot by the HTTP layer,
// is read by its integration (src/integrations/) and posted through the ordinary send path as the bot, with the
// reference's conventions: `stream` (name or id; absent, a direct message to the bot's owner), `topic` to
// override the integration's, only_events/exclude_events, and a notice to the bot's owner from the Notification
// Bot, at most once a minute per bot, when the channel does not exist (the request still succeeds).
import { createHmac } from 'node:crypto';
import type { App } from '../app.js';
import { ApiError, NotFoundError } from '../lib/errors.js';
import { INTEGRATIONS } from '../integrations/index.js';
import { AnomalousPayloadError, PayloadFieldError, type HookMessage, type Integration } from '../integrations/types.js';
import { globMatch } from '../integrations/git.js';
import { constantTimeEqual } from '../lib/secrets.js';
import { organizationUrl } from '../lib/urls.js';
import { botSettings } from '../store/bots.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { doSendMessage } from './messages-send.js';
import { postNotice } from './notifications.js';
import { inTransaction } from './transaction.js';

// The bot's config_data entry holding the secret its tool signs with (GitHub's X-Hub-Signature-256, GitLab's
// X-Gitlab-Token); set by its owner or an administrator with PATCH /bots/{id} config_data.
export const WEBHOOK_SECRET_KEY = 'webhook_secret';
// The reference's BOT_OWNER_STREAM_ALERT_WAITPERIOD: one notice a minute per bot.
const NOTICE_INTERVAL_SECONDS = 60;

export interface WebhookInput {
  integration: string;
  body: unknown; // the parsed request body (JSON value, or the form fields)
  rawBody: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string | undefined>; // the URL's (and form's) parameters
}

export function accessIntegration(name: string): Integration {
  const integration = INTEGRATIONS.get(name);
  if (!integration) throw new NotFoundError(`Unknown integration '${name}'. The integrations are: ${[...INTEGRATIONS.keys()].join(', ')}.`);
  return integration;
}

const parseJson = (raw: string) => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError('Malformed JSON', 'INVALID_JSON', 400);
  }
};

// JSON in the body, or in a form's `payload` field (Slack's form, GitHub's "application/x-www-form-urlencoded"),
// or a JSON body mislabelled as a form (the reference reads the body whatever its label says).
function payloadOf(body: unknown, rawBody: string | undefined): unknown {
  if (body instanceof URLSearchParams) {
    const raw = body.get('payload');
    if (raw !== null) return parseJson(raw);
    if (rawBody && /^\s*[[{]/.test(rawBody)) return parseJson(rawBody);
    throw new ApiError("Missing 'payload' argument", 'REQUEST_VARIABLE_MISSING', 400, { var_name: 'payload' });
  }
  if (body === undefined || body === null) throw new ApiError('Malformed JSON', 'INVALID_JSON', 400);
  return body;
}

const header = (headers: WebhookInput['headers'], name: string) => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

async function checkSignature(app: App, bot: User, integration: Integration, input: WebhookInput): Promise<void> {
  if (integration.name !== 'github' && integration.name !== 'gitlab') return;
  const secret = (await botSettings(app.db, [bot.id])).get(bot.id)?.configData[WEBHOOK_SECRET_KEY];
  if (!secret) return;
  const refuse = () => new ApiError('The request is not signed with the webhook secret set on this bot.', 'INVALID_WEBHOOK_SIGNATURE', 401);
  if (integration.name === 'github') {
    const given = header(input.headers, 'x-hub-signature-256') ?? '';
    const expected = `sha256=${createHmac('sha256', secret).update(input.rawBody ?? '').digest('hex')}`;
    if (!constantTimeEqual(given, expected)) throw refuse();
  } else if (integration.name === 'gitlab') {
    if (!constantTimeEqual(header(input.headers, 'x-gitlab-token') ?? '', secret)) throw refuse();
  }
}

function jsonList(params: WebhookInput['params'], name: string): string[] | null {
  const raw = params[name];
  if (raw === undefined) return null;
  try {
    const v = JSON.parse(raw) as unknown;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  } catch {
    // answered below
  }
  throw new ApiError(`${name} is not a list`, 'BAD_REQUEST', 400, { var_name: name });
}

// The reference's generic filter: shell-style patterns against the event kind.
function wanted(event: string, only: string[] | null, exclude: string[] | null): boolean {
  if (only && !only.some((p) => globMatch(p, event))) return false;
  return !(exclude && exclude.some((p) => globMatch(p, event)));
}

export async function doIncomingWebhook(app: App, realm: Realm, bot: User, input: WebhookInput): Promise<void> {
  const integration = accessIntegration(input.integration);
  const payload = payloadOf(input.body, input.rawBody);
  await checkSignature(app, bot, integration, input);
  if (integration.eventHeader && header(input.headers, integration.eventHeader) === undefined) {
    await noticeToOwner(app, realm, bot, missingHeaderNotice(bot, integration));
    throw new ApiError(`Missing the HTTP event header '${integration.eventHeader}'`, 'MISSING_HTTP_EVENT_HEADER', 400, { header: integration.eventHeader });
  }
  const userTopic = input.params.topic;
  let messages: HookMessage[];
  try {
    messages = integration.handle({ payload, header: (n) => header(input.headers, n), param: (n) => input.params[n], userTopic: userTopic !== undefined });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // A payload without the fields of its event: the tool's mistake (or not the tool), never ours.
    if (err instanceof PayloadFieldError || err instanceof TypeError) throw new AnomalousPayloadError(integration.displayName);
    throw err;
  }
  const only = jsonList(input.params, 'only_events');
  const exclude = jsonList(input.params, 'exclude_events');
  for (const m of messages) {
    if (!wanted(m.event, only, exclude)) continue;
    await sendAsBot(app, realm, bot, integration, input.params.stream, withoutNul(userTopic ?? m.topic), withoutNul(m.content));
  }
}

// A payload's text may hold NUL, which no message may (PostgreSQL refuses it in text): shown as U+FFFD.
const withoutNul = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '\ufffd') : s);

async function sendAsBot(app: App, realm: Realm, bot: User, integration: Integration, stream: string | undefined, topic: string, content: string): Promise<void> {
  const realmUrl = organizationUrl(app, realm);
  const client = `Zulip${integration.displayName.replace(/\s+/g, '')}Webhook`;
  if (stream === undefined) {
    await doSendMessage(app, realm, bot, { type: 'private', to: [bot.botOwnerId ?? bot.id], content, client, realmUrl });
    return;
  }
  const target = /^\d+$/.test(stream) ? Number(stream) : stream;
  try {
    await doSendMessage(app, realm, bot, { type: 'stream', to: target, topic, content, client, realmUrl });
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'STREAM_DOES_NOT_EXIST') throw err;
    await noticeToOwner(app, realm, bot, typeof target === 'number'
      ? `Your bot \`${bot.deliveryEmail}\` tried to send a message to channel ID ${target}, but there is no channel with that ID.`
      : `Your bot \`${bot.deliveryEmail}\` tried to send a message to channel #**${target}**, but that channel does not exist. Click [here](#channels/new) to create it.`);
  }
}

// The reference's words, but for its support address: this server has none to give.
const missingHeaderNotice = (bot: User, integration: Integration) => `Hi there!  Your bot ${bot.fullName} just sent an HTTP request to /api/v1/external/${integration.name} that
is missing the HTTP ${integration.eventHeader} header.  Because this header is how
${integration.displayName} indicates the event type, this usually indicates a configuration
issue, where you either entered the URL for a different integration, or are running
an older version of the third-party service that doesn't provide that header.
Ask your organization's administrators if you need help debugging!`;

// A misconfigured tool may post many times a minute: its owner hears of it once a minute.
async function noticeToOwner(app: App, realm: Realm, bot: User, content: string): Promise<void> {
  if (!bot.isBot || bot.botOwnerId === null) return;
  const { allowed } = await app.limiter.hit(`webhook-notice:${bot.id}`, 1, NOTICE_INTERVAL_SECONDS);
  if (!allowed) return;
  const ownerId = bot.botOwnerId;
  await inTransaction(app, (tx, emit) => postNotice({ tx, emit, realm, realmUrl: organizationUrl(app, realm) }, { userId: ownerId }, content));
}
