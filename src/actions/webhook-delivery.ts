// Delivers queued outgoing-webhook triggers (src/actions/outgoing-webhooks.ts): a worker in every serving
// process claims each one for an attempt, POSTs it through the guarded fetcher, and posts the answer as the
// bot. Connection errors, timeouts and 5xx answers are tried again with back-off; after the last failure the
// conversation is told the bot is unavailable and the bot's owner gets a direct message from the Notification
// Bot naming the bot, the message and the error, as on the reference server.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { FetchRefused, guardedFetch, type GuardedResponse } from '../lib/guarded-fetch.js';
import { fenceFor } from '../format/quote.js';
import { directMessageUrl } from '../format/quote.js';
import { messageUrl } from '../lib/mention-syntax.js';
import { organizationHost, organizationUrl } from '../lib/urls.js';
import { botSettings } from '../store/bots.js';
import { findRealm, type Realm } from '../store/realms.js';
import { findUser, type User } from '../store/users.js';
import { claimDelivery, dueDeliveries, markDeliveryDone, markDeliveryRetry, purgeDeliveries, type Delivery } from '../store/webhook-deliveries.js';
import { PARLANCE_VERSION } from '../version.js';
import { doSendMessage, sendMessageInTx } from './messages-send.js';
import { webhookAnswer, webhookRequest } from './outgoing-webhooks.js';
import { notificationBot } from './system-bots.js';
import { inTransaction } from './transaction.js';

// One attempt may take this long (the reference's OUTGOING_WEBHOOK_TIMEOUT_SECONDS).
export const WEBHOOK_TIMEOUT_MS = 10_000;
// A first attempt and three retries (the reference's MAX_REQUEST_RETRIES), 2, 4 and 8 s apart: with every
// attempt timing out, the owner hears of it within a minute of the message.
const MAX_ATTEMPTS = 4;
const retryDelayMs = (attempts: number) => 2000 * 2 ** (attempts - 1);
// A claimed attempt that never finished (its process died) is taken up again after this long.
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 5000;
const MAX_ANSWER_BYTES = 1024 * 1024;
// Deliveries attempted together by one process (each waits on a remote service, not on the CPU).
const BATCH = 20;

type Message = Record<string, any>;

// Finished deliveries are deleted a day after, looked for once a minute.
const KEEP_DONE_MS = 86_400_000;
let lastPurge = 0;

export async function deliverDueWebhooks(app: App): Promise<void> {
  if (Date.now() - lastPurge > 60_000) {
    lastPurge = Date.now();
    await purgeDeliveries(app.db, lastPurge - KEEP_DONE_MS);
  }
  const due = await dueDeliveries(app.db, Date.now(), BATCH);
  await Promise.all(due.map((d) => deliverOne(app, d).catch((err) => app.log.error({ err, delivery: d.id }, 'outgoing webhook delivery failed'))));
}

interface Attempt {
  app: App;
  realm: Realm;
  bot: User;
  delivery: Delivery;
  message: Message;
}

async function deliverOne(app: App, d: Delivery): Promise<void> {
  if (!(await claimDelivery(app.db, d.id, d.attempts, Date.now() + LEASE_MS))) return;
  const realm = await findRealm(app.db, d.realmId);
  const bot = realm && (await findUser(app.db, realm.id, d.botId));
  const service = bot && (await botSettings(app.db, [bot.id])).get(bot.id);
  if (!realm || !bot?.isActive || !service?.serviceBaseUrl || !service.serviceToken) {
    return markDeliveryDone(app.db, d.id, Date.now(), 'the bot or its service is gone');
  }
  const a: Attempt = { app, realm, bot, delivery: d, message: JSON.parse(d.message) as Message };
  const request = webhookRequest(service.serviceInterface, {
    bot, token: service.serviceToken, trigger: d.trigger, message: a.message, realm, host: organizationHost(app, realm),
  });
  if (!request) {
    await failInConversation(a, "Slack outgoing webhooks don't support direct messages.");
    return markDeliveryDone(app.db, d.id, Date.now(), 'direct message to a Slack-compatible webhook');
  }
  let res: GuardedResponse;
  try {
    res = await guardedFetch(service.serviceBaseUrl, {
      method: 'POST',
      headers: { ...request.headers, 'user-agent': `ParlanceOutgoingWebhook/${PARLANCE_VERSION}` },
      body: request.body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (err) {
    const refused = err instanceof FetchRefused ? err : new FetchRefused((err as Error).message, 'network');
    if (refused.reason === 'time') return retryOrGiveUp(a, `Request timed out after ${WEBHOOK_TIMEOUT_MS / 1000} seconds.`);
    if (refused.reason === 'network') {
      return retryOrGiveUp(a, `The message \`${a.message.content}\` resulted in a connection error when sending a request to an outgoing webhook! See the server logs for more information.`);
    }
    app.log.info({ err: refused, bot: bot.id }, 'outgoing webhook refused');
    await failInConversation(a, `An exception of type *FetchRefused* occurred for message \`${a.message.content}\`! See the server logs for more information.`);
    await notifyOwner(a, { private: refused.reason === 'address', exception: refused });
    return markDeliveryDone(app.db, d.id, Date.now(), refused.message);
  }
  if (res.status >= 500) return retryOrGiveUp(a, `Third party responded with ${res.status}`, res);
  if (res.status < 200 || res.status >= 300) {
    await failInConversation(a, `Third party responded with ${res.status}`);
    await notifyOwner(a, { status: res.status, content: res.body.toString('utf8') });
    return markDeliveryDone(app.db, d.id, Date.now(), `status ${res.status}`);
  }
  await answer(a, res.body.toString('utf8'));
  await markDeliveryDone(app.db, d.id, Date.now(), null);
}

async function answer(a: Attempt, body: string): Promise<void> {
  const service = (await botSettings(a.app.db, [a.bot.id])).get(a.bot.id)!;
  const parsed = webhookAnswer(service.serviceInterface, body);
  if ('error' in parsed) {
    await failInConversation(a, parsed.error);
    const failure = `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${parsed.error}`;
    return notifyOwner(a, { failure });
  }
  if (parsed.content === null) return;
  try {
    await replyAsBot(a, parsed.content);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const failure = `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${err.message}`;
    await notifyOwner(a, { failure });
  }
}

async function retryOrGiveUp(a: Attempt, failure: string, res?: GuardedResponse): Promise<void> {
  const d = a.delivery;
  const attempts = d.attempts + 1;
  if (attempts < MAX_ATTEMPTS) return markDeliveryRetry(a.app.db, d.id, Date.now() + retryDelayMs(attempts), failure);
  a.app.log.warn({ bot: a.bot.email, message: d.messageId }, 'outgoing webhook: maximum retries exceeded');
  await failInConversation(a, 'Bot is unavailable');
  await notifyOwner(a, { failure, ...(res ? { status: res.status, content: res.body.toString('utf8') } : {}) });
  await markDeliveryDone(a.app.db, d.id, Date.now(), failure);
}

// The bot posts in the triggering message's topic, or its direct-message conversation, through the normal send
// (so its permissions apply), one step further down the chain of bot answers.
function replyAsBot(a: Attempt, content: string) {
  const m = a.message;
  const to = m.type === 'stream' ? m.stream_id : (m.display_recipient as { id: number }[]).map((r) => r.id);
  return doSendMessage(a.app, a.realm, a.bot, {
    type: m.type, to, topic: m.type === 'stream' ? m.subject : undefined, content, client: 'OutgoingWebhookResponse',
    webhookDepth: a.delivery.depth + 1, realmUrl: organizationUrl(a.app, a.realm),
  });
}

async function failInConversation(a: Attempt, failure: string): Promise<void> {
  await replyAsBot(a, `Failure! ${failure}`).catch((err) => a.app.log.info({ err, bot: a.bot.id }, 'outgoing webhook: failure notice not posted'));
}

interface OwnerNotice {
  failure?: string;
  status?: number;
  content?: string;
  private?: boolean;
  exception?: Error;
}

function noticeText(a: Attempt, n: OwnerNotice): string {
  const m = a.message;
  const realmUrl = organizationUrl(a.app, a.realm);
  const url = m.type === 'stream'
    ? messageUrl(realmUrl, m.stream_id, m.display_recipient, m.subject, m.id)
    : directMessageUrl(realmUrl, (m.display_recipient as { id: number }[]).map((r) => r.id), m.id);
  let text = `[A message](${url}) to your bot @_**${a.bot.fullName}** triggered an outgoing webhook.`;
  if (n.failure) text += `\n${n.failure}`;
  if (n.private) text += '\nThe URL configured for the webhook is for a private or disallowed network.';
  else if (n.status) text += `\nThe webhook got a response with status code *${n.status}*.`;
  if (n.content) {
    const fence = fenceFor(n.content);
    text += `\nThe response contains the following payload:\n${fence}\n${n.content.slice(0, 2000)}\n${fence}`;
  }
  if (n.exception && !n.private) {
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${n.exception.name} occurred:\n\`\`\`\n${n.exception.message}\n\`\`\``;
  }
  return text;
}

async function notifyOwner(a: Attempt, n: OwnerNotice): Promise<void> {
  const ownerId = a.bot.botOwnerId;
  const owner = ownerId === null ? undefined : await findUser(a.app.db, a.realm.id, ownerId);
  if (!owner?.isActive) return;
  const content = noticeText(a, n);
  await inTransaction(a.app, async (tx, emit) => {
    const bot = await notificationBot(tx, emit, a.realm, organizationHost(a.app, a.realm));
    await sendMessageInTx(tx, emit, a.realm, bot, { type: 'private', to: [owner.id], content, system: true, client: 'Internal' });
  });
}
