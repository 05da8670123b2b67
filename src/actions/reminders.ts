// Reminders: a scheduled direct message to oneself that recalls a message (with an optional note). They share
// storage and the delivery worker with scheduled messages; as in the reference server, the Notification Bot
// delivers them, with a link to the message and a quote of it as it was when the reminder was set.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { directMessageUrl, fenceFor, truncated } from '../format/quote.js';
import { channelNarrow, silentMention } from '../lib/mention-syntax.js';
import { ApiError } from '../lib/errors.js';
import { codePointLength } from '../lib/text.js';
import { hostOf } from '../lib/urls.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import type { Db } from '../store/db.js';
import { dmMembers, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { deleteScheduled, findScheduled, insertScheduled } from '../store/scheduled-messages.js';
import { findStream } from '../store/streams.js';
import { findUser, type User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { checkRoomToSchedule, checkScheduled } from './scheduled-messages.js';
import { notificationBot } from './system-bots.js';
import { inTransaction } from './transaction.js';
import { formatReminder, reminderList } from '../state/reminders.js';

export interface ReminderInput {
  messageId: number;
  scheduledDeliveryTimestamp: number;
  note?: string;
}

const missing = () => new ApiError('Reminder does not exist', 'BAD_REQUEST', 404);

function checkNote(raw: string | undefined): string {
  const note = (raw ?? '').trimEnd().replace(/^\n+/, '');
  const max = SERVER_LIMITS.max_reminder_note_length;
  if (codePointLength(note) > max) throw new ApiError(`Maximum reminder note length: ${max} characters`);
  return note;
}

async function reminderContent(db: Db, realm: Realm, message: Message, note: string, realmUrl: string): Promise<string> {
  const noted = note ? ` Note:\n > ${note}` : '';
  let intro: string;
  let url: string;
  if (message.streamId !== null) {
    const stream = (await findStream(db, realm.id, message.streamId))!;
    intro = `You requested a reminder for #**${stream.name}>${message.topic}@${message.id}**.${noted}`;
    url = `${realmUrl}/${channelNarrow(stream, message.topic)}/near/${message.id}`;
  } else {
    intro = `You requested a reminder for the following direct message.${noted}`;
    const members = (await dmMembers(db, [message.recipientId])).get(message.recipientId) ?? [message.senderId];
    url = directMessageUrl(realmUrl, members, message.id);
  }
  const sender = (await findUser(db, realm.id, message.senderId))!;
  const head = `${intro}\n\n${silentMention(sender)} [said](${url}):\n`;
  const fence = fenceFor(message.content);
  // The quote is cut so that the whole reminder fits in one message.
  const room = SERVER_LIMITS.max_message_length - codePointLength(head) - 2 * fence.length - 'quote\n\n'.length;
  return `${head}${fence}quote\n${truncated(message.content, room)}\n${fence}`;
}

export async function doCreateReminder(app: App, realm: Realm, user: User, input: ReminderInput, realmUrl: string): Promise<number> {
  if (input.scheduledDeliveryTimestamp <= nowSeconds()) throw new ApiError('Scheduled delivery time must be in the future.');
  const { message } = await accessMessage(app.db, realm, user, input.messageId);
  const content = await reminderContent(app.db, realm, message, checkNote(input.note), realmUrl);
  const fields = await checkScheduled(app, realm, user, { type: 'private', to: [user.id], topic: '', content, scheduledTimestamp: input.scheduledDeliveryTimestamp });
  return inTransaction(app, async (tx, emit) => {
    // Made now, while the organization's address is known, so that the worker finds it at delivery time.
    await notificationBot(tx, emit, realm, hostOf(realmUrl));
    await checkRoomToSchedule(tx, user);
    const reminder = await insertScheduled(tx, realm.id, user.id, fields, false, message.id);
    emit(realm.id, { type: 'reminders', op: 'add', reminders: [formatReminder(reminder)] }, [user.id]);
    return reminder.id;
  });
}

export async function doDeleteReminder(app: App, realm: Realm, user: User, id: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    if (!(await findScheduled(tx, user.id, id, true))) throw missing();
    await deleteScheduled(tx, id);
    emit(realm.id, { type: 'reminders', op: 'remove', reminder_id: id }, [user.id]);
  });
}

export const accessReminders = (app: App, user: User) => reminderList(app.db, user);
