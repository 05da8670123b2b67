// POST /messages/{message_id}/report (§4.18): the Notification Bot posts the report to the organization's
// moderation request channel, in a topic named after the reported user.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { directMessageUrl, fenceFor, truncated } from '../format/quote.js';
import { realmSettings } from '../state/realm.js';
import { REPORT_MESSAGE_TYPES, SERVER_LIMITS } from '../state/realm-data.js';
import type { Tx } from '../store/db.js';
import { dmMembers, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { findUsers, type User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { checkTopic } from './messages-send.js';
import { postNotice } from './notifications.js';
import { silentMention } from '../lib/mention-syntax.js';
import { inTransaction } from './transaction.js';

export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
// The reported message is quoted shortened, so that the report (with its notes) fits in one message.
const MAX_QUOTED_LENGTH = SERVER_LIMITS.max_message_length - MAX_REPORT_DESCRIPTION_LENGTH - 500;

export interface ReportInput {
  reportType: string;
  description: string;
}

const globalTime = (seconds: number) => `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
const listOf = (items: string[]) => new Intl.ListFormat('en', { type: 'conjunction' }).format(items);

async function reportContent(tx: Tx, realm: Realm, realmUrl: string, reporter: User, message: Message, input: ReportInput): Promise<{ content: string; sender: User }> {
  const members = message.streamId === null ? ((await dmMembers(tx, [message.recipientId])).get(message.recipientId) ?? [message.senderId]) : [];
  const users = new Map((await findUsers(tx, realm.id, [message.senderId, ...members])).map((u) => [u.id, u]));
  const sender = users.get(message.senderId)!;
  const others = members.filter((id) => id !== sender.id).map((id) => silentMention(users.get(id)!));
  // Reporting one's own direct message names whom it went to; a group's other members are always named.
  const to = (members.length > 2 || sender.id === reporter.id) && members.length ? ` to ${others.length ? listOf(others) : silentMention(sender)}` : '';
  const header = `${silentMention(reporter)} reported a message sent by ${silentMention(sender)}${to} at ${globalTime(message.dateSent)}.`;

  let original: string;
  if (message.streamId !== null) {
    const stream = (await findStream(tx, realm.id, message.streamId))!;
    original = `Original message at #**${stream.name}>${message.topic}@${message.id}**`;
  } else {
    original = `[Original message](${directMessageUrl(realmUrl, members, message.id)})`;
  }
  const reason = REPORT_MESSAGE_TYPES.find((t) => t.key === input.reportType)!.name;
  const body = truncated(message.content, MAX_QUOTED_LENGTH);
  const fence = fenceFor(body);
  // The reporter's words stay inside their quote whatever fences they hold.
  const quote = fenceFor(input.description);
  const content = `${header}\n${quote}quote\n**${reason}**. ${input.description}\n${quote}\n\n${fence} spoiler ${original}\n${body}\n${fence}\n`;
  return { content, sender };
}

export async function doReportMessage(app: App, realm: Realm, reporter: User, messageId: number, input: ReportInput, realmUrl: string): Promise<void> {
  const description = input.description.trim();
  if (input.reportType === 'other' && !description) throw new ApiError('An explanation is required.');
  const channelId = realmSettings(realm).moderation_request_channel_id;
  await inTransaction(app, async (tx, emit) => {
    const channel = channelId === null || channelId < 0 ? undefined : await findStream(tx, realm.id, channelId);
    if (!channel || channel.isArchived) throw new ApiError('Moderation request channel must be specified to enable message reporting.');
    const { message } = await accessMessage(tx, realm, reporter, messageId);
    const { content, sender } = await reportContent(tx, realm, realmUrl, reporter, message, { ...input, description });
    const topic = channel.topicsPolicy === 'empty_topic_only' ? '' : checkTopic(`${sender.fullName} moderation`);
    await postNotice({ tx, emit, realm, realmUrl }, { channel, topic }, content);
  });
}
