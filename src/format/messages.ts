// The message object of §2.4, for GET /messages, single fetch and message events.
import { realmSettings } from '../state/realm.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import type { Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { avatarUrl } from './users.js';

export interface MessageLookups {
  realm: Realm;
  users: Map<number, User>;
  streamNames: Map<number, string>;
  dmMembers: Map<number, number[]>; // recipient id → member ids
  reactions?: Map<number, Record<string, unknown>[]>;
  submessages?: Map<number, Record<string, unknown>[]>;
  topicLinks?: (topic: string) => { text: string; url: string }[];
}

export interface MessageFlavour {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export function displayTopic(topic: string, isChannel: boolean, allowEmpty: boolean): string {
  return isChannel && topic === '' && !allowEmpty ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

export function formatMessage(m: Message, l: MessageLookups, f: MessageFlavour): Record<string, unknown> {
  const sender = l.users.get(m.senderId)!;
  const isChannel = m.streamId !== null;
  const recipients = isChannel
    ? l.streamNames.get(m.streamId!)!
    : (l.dmMembers.get(m.recipientId) ?? [m.senderId]).map((id) => {
        const u = l.users.get(id)!;
        return { id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false };
      });
  return {
    id: m.id,
    sender_id: m.senderId,
    content: f.applyMarkdown ? m.renderedContent : m.content,
    content_type: f.applyMarkdown ? 'text/html' : 'text/x-markdown',
    recipient_id: m.recipientId,
    timestamp: m.dateSent,
    client: m.client,
    subject: displayTopic(m.topic, isChannel, f.allowEmptyTopicName),
    topic_links: isChannel && l.topicLinks ? l.topicLinks(m.topic) : [],
    is_me_message: m.isMeMessage,
    reactions: l.reactions?.get(m.id) ?? [],
    submessages: l.submessages?.get(m.id) ?? [],
    sender_full_name: sender.fullName,
    sender_email: sender.email,
    sender_realm_str: l.realm.stringId,
    display_recipient: recipients,
    type: isChannel ? 'stream' : 'private',
    ...(isChannel ? { stream_id: m.streamId } : {}),
    avatar_url: avatarUrl(sender, f.clientGravatar),
    ...(m.lastEditTime !== null ? { last_edit_timestamp: m.lastEditTime } : {}),
    ...(m.lastMovedTime !== null ? { last_moved_timestamp: m.lastMovedTime } : {}),
    ...visibleEditHistory(m.editHistory, l.realm),
  };
}

// An edit-history entry (or a snapshot of GET /messages/{id}/history) that moved the message.
export const isMove = (e: Record<string, unknown>) => 'prev_topic' in e || 'prev_stream' in e;

// The organization's message_edit_history_visibility_policy: all of it, only moves (without the previous
// contents), or none; absent when nothing is left to show.
function visibleEditHistory(history: Message['editHistory'], realm: Realm): { edit_history?: unknown[] } {
  if (!history) return {};
  const policy = realmSettings(realm).message_edit_history_visibility_policy;
  if (policy === 'none') return {};
  if (policy === 'all') return { edit_history: history };
  const moves = (history as Record<string, unknown>[])
    .filter(isMove)
    .map(({ prev_content: _c, prev_rendered_content: _r, prev_rendered_content_version: _v, ...rest }) => rest);
  return moves.length ? { edit_history: moves } : {};
}
