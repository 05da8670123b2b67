// Submessages (POST /submessage): the state of a message's widget (votes and options of a /poll, tasks of a
// /todo), added by anyone who may read the message once its sender has started the widget.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { checkWidgetEvent, pythonJson, widgetOf, type WidgetType } from '../lib/widgets.js';
import type { Tx } from '../store/db.js';
import { lockMessage } from '../store/message-edits.js';
import type { Realm } from '../store/realms.js';
import { hasSubmessageFrom, insertSubmessage, widgetSubmessage, type Submessage } from '../store/submessages.js';
import type { User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { messageAudience } from './message-audience.js';
import { inTransaction } from './transaction.js';

// The reference bounds msg_type by its column; content, which the reference leaves unbounded, is held to the
// length of a message.
const MAX_MSG_TYPE_LENGTH = 100;
const MAX_CONTENT_LENGTH = 10_000;

// The widget submessage a new message starts with, if its content begins with /poll or /todo.
export async function addWidget(tx: Tx, messageId: number, senderId: number, content: string): Promise<Submessage[]> {
  const widget = widgetOf(content);
  if (!widget) return [];
  return [await insertSubmessage(tx, { message_id: messageId, sender_id: senderId, msg_type: 'widget', content: pythonJson(widget) })];
}

function widgetTypeOf(s: Submessage | undefined): WidgetType | null {
  if (!s) return null;
  try {
    const type = (JSON.parse(s.content) as { widget_type?: unknown }).widget_type;
    return type === 'poll' || type === 'todo' ? type : null;
  } catch {
    return null;
  }
}

export async function doAddSubmessage(app: App, realm: Realm, user: User, messageId: number, msgType: string, content: string): Promise<void> {
  if ([...msgType].length > MAX_MSG_TYPE_LENGTH) throw new ApiError(`msg_type is too long (limit: ${MAX_MSG_TYPE_LENGTH} characters)`);
  if ([...content].length > MAX_CONTENT_LENGTH) throw new ApiError(`content is too long (limit: ${MAX_CONTENT_LENGTH} characters)`);
  await inTransaction(app, async (tx, emit) => {
    await lockMessage(tx, messageId);
    const { message, stream } = await accessMessage(tx, realm, user, messageId, { modifying: true });
    // Others may only add to what the message's sender started.
    if (message.senderId !== user.id && !(await hasSubmessageFrom(tx, message.id, message.senderId))) {
      throw new ApiError('You cannot attach a submessage to this message.');
    }
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch {
      throw new ApiError('Invalid json for submessage');
    }
    const widget = widgetTypeOf(await widgetSubmessage(tx, message.id));
    if (widget) {
      const error = checkWidgetEvent(widget, data, message.senderId === user.id);
      if (error) throw new ApiError(error);
    }
    const s = await insertSubmessage(tx, { message_id: message.id, sender_id: user.id, msg_type: msgType, content });
    const audience = await messageAudience(tx, realm.id, stream, [message.id], message.id);
    const event = { type: 'submessage', msg_type: s.msg_type, message_id: s.message_id, submessage_id: s.id, sender_id: s.sender_id, content: s.content };
    emit(realm.id, event, [...audience.keys()]);
  });
}
