// Scheduled messages as the register block and the scheduled_messages events show them.
import type { ScheduledMessage } from '../store/scheduled-messages.js';

export function formatScheduled(m: ScheduledMessage): Record<string, unknown> {
  return {
    scheduled_message_id: m.id,
    type: m.type,
    to: m.to,
    ...(m.type === 'stream' ? { topic: m.topic } : {}),
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: m.scheduledTimestamp,
    failed: m.failed,
  };
}
