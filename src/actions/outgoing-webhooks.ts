// Outgoing webhooks: which messages trigger an outgoing-webhook bot, and what is posted to its service. A
// trigger is queued in the transaction of the message (src/actions/webhook-delivery.ts delivers it), so it
// exists exactly when the message does.
import { BOT_TYPE } from '../format/bots.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findUsers, type User } from '../store/users.js';
import { enqueueDeliveries, type NewDelivery } from '../store/webhook-deliveries.js';

// Bots answering bots: a reply by an outgoing-webhook bot carries the depth of the chain that led to it (a
// person's message is 0, the bot's answer 1, …); a message this deep triggers no bot. So one message leads to
// at most this many webhook answers in a row, and two bots mentioning each other stop.
export const MAX_BOT_CHAIN = 3;

export const INTERFACE = { generic: 1, slack: 2 } as const;

export interface TriggeringMessage {
  id: number;
  stream: { id: number; inviteOnly: boolean } | null;
  recipients: number[];
  mentioned: Set<number>;
  depth: number;
  // The message in the shape GET /messages gives it, with its raw content (as the reference's payload has it).
  payload: Record<string, unknown>;
}

// A channel message triggers the outgoing-webhook bots it mentions (those that may read it: subscribed, or the
// channel is public); a direct message the bots among its recipients. Never the sender itself.
export async function queueWebhookTriggers(tx: Tx, realm: Realm, sender: User, m: TriggeringMessage): Promise<void> {
  if (m.depth >= MAX_BOT_CHAIN) return;
  const candidates = (m.stream ? [...m.mentioned] : m.recipients).filter((id) => id !== sender.id);
  if (!candidates.length) return;
  const bots = (await findUsers(tx, realm.id, candidates)).filter((u) => u.isActive && u.botType === BOT_TYPE.outgoingWebhook);
  const deliveries: NewDelivery[] = [];
  for (const bot of bots) {
    if (m.stream && m.stream.inviteOnly && !m.recipients.includes(bot.id)) continue;
    deliveries.push({
      realmId: realm.id, botId: bot.id, messageId: m.id, trigger: m.stream ? 'mention' : 'direct_message', depth: m.depth,
      message: JSON.stringify(m.payload),
    });
  }
  await enqueueDeliveries(tx, deliveries, Date.now());
}

export interface WebhookRequest {
  headers: Record<string, string>;
  body: string;
}

interface PayloadInput {
  bot: User;
  token: string;
  trigger: string;
  message: Record<string, unknown>;
  realm: Realm;
  host: string;
}

// The reference's generic form: JSON with the message and who it is for.
function genericRequest(p: PayloadInput): WebhookRequest {
  const body = {
    data: p.message.content,
    message: p.message,
    bot_email: p.bot.email,
    bot_full_name: p.bot.fullName,
    token: p.token,
    trigger: p.trigger,
  };
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

// The Slack-compatible form (an outgoing webhook of Slack's): form fields, ids prefixed as Slack's are. Slack's
// has no direct messages: null.
function slackRequest(p: PayloadInput): WebhookRequest | null {
  const m = p.message;
  if (m.type !== 'stream') return null;
  const fields = new URLSearchParams([
    ['token', p.token],
    ['team_id', `T${p.realm.id}`],
    ['team_domain', p.host],
    ['channel_id', `C${m.stream_id}`],
    ['channel_name', String(m.display_recipient)],
    ['thread_ts', String(m.timestamp)],
    ['timestamp', String(m.timestamp)],
    ['user_id', `U${m.sender_id}`],
    ['user_name', String(m.sender_full_name)],
    ['text', String(m.content)],
    ['trigger_word', p.trigger],
    ['service_id', String(p.bot.id)],
  ]);
  return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() };
}

export const webhookRequest = (interfaceType: number | null, p: PayloadInput) =>
  interfaceType === INTERFACE.slack ? slackRequest(p) : genericRequest(p);

// What the service answered: text to post as the bot, nothing (null), or why the answer is unusable.
export function webhookAnswer(interfaceType: number | null, body: string): { content: string | null } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { error: 'Invalid JSON in response' };
  }
  // Older bot servers answered "" for "no response required".
  if (json === '' || json === null) return { content: null };
  if (typeof json !== 'object' || Array.isArray(json)) return { error: 'Invalid response format' };
  const answer = json as Record<string, unknown>;
  if (interfaceType !== INTERFACE.slack && answer.response_not_required === true) return { content: null };
  const content = interfaceType === INTERFACE.slack ? answer.text : answer.content;
  if (content === undefined || content === null) return { content: null };
  if (typeof content !== 'string') return { error: 'Invalid response format' };
  return { content: content.trim() ? content : null };
}
