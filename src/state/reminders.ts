// The reminders register block (and GET /reminders).
import type { Db } from '../store/db.js';
import { listScheduled, type ScheduledMessage } from '../store/scheduled-messages.js';
import type { User } from '../store/users.js';

export async function reminderList(db: Db, user: User): Promise<Record<string, unknown>[]> {
  return (await listScheduled(db, user.id, true)).map(formatReminder);
}

export function formatReminder(m: ScheduledMessage): Record<string, unknown> {
  return {
    reminder_id: m.id,
    type: 'private',
    to: m.to,
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: m.scheduledTimestamp,
    failed: m.failed,
    reminder_target_message_id: m.reminderTargetMessageId,
  };
}
