// Who may access a message by its id, and so who is told when it changes (the reference server's
// has_message_access). Every by-id path and every event about an existing message decides through this rule.
import type { Stream } from '../store/streams.js';
import type { Subscription } from '../store/subscriptions.js';
import { hasContentAccess, type Viewer } from './channels.js';

export interface MessagePlace {
  // The message's channel; null for a direct message.
  stream: Stream | null;
  // The user holds a row for the message: they received it, or starred or reacted to it while they could read it.
  received: boolean;
  // Their subscription to the channel, if any.
  sub?: Pick<Subscription, 'active'>;
}

// A direct message: whoever received it. A channel message: whoever may read the channel's content (a public
// channel's anyone but guests, a private channel's its subscribers and the groups that grant content access);
// with protected history only those of them who received it. So a member removed from a private channel loses
// the messages they received there, though their own feed still lists them. Changes (edits, moves, deletions,
// reactions) are refused in archived channels, whose messages stay readable.
export function canAccessMessage(v: Viewer, m: MessagePlace, opts: { modifying?: boolean } = {}): boolean {
  if (!m.stream) return m.received;
  if (opts.modifying && m.stream.isArchived) return false;
  if (!hasContentAccess(v, m.stream, m.sub)) return false;
  return m.stream.historyPublicToSubscribers || m.received;
}
