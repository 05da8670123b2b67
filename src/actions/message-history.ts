// GET /messages/{message_id}/history (§4.19): the stored edit history (most recent first, changed fields
// only) expanded into snapshots of the message after each edit, oldest first.
import { ApiError } from '../lib/errors.js';
import { highlightHtmlDifferences } from '../lib/html-diff.js';
import { displayTopic, isMove } from '../format/messages.js';
import { realmSettings } from '../state/realm.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { accessMessage } from './message-access.js';

type Snapshot = Record<string, unknown>;

export async function accessMessageHistory(db: Db, realm: Realm, user: User, id: number, allowEmptyTopicName: boolean): Promise<Snapshot[]> {
  const policy = realmSettings(realm).message_edit_history_visibility_policy;
  if (policy === 'none') throw new ApiError('Message edit history is disabled in this organization');
  const { message } = await accessMessage(db, realm, user, id);
  const isChannel = message.streamId !== null;
  const topicName = (t: string) => displayTopic(t, isChannel, allowEmptyTopicName);

  // Walking back from the current state, each entry says what the message was before it.
  let content = message.content;
  let rendered = message.renderedContent;
  let topic = topicName(message.topic);
  const snapshots: Snapshot[] = [];
  for (const raw of message.editHistory ?? []) {
    const e = raw as Record<string, unknown>;
    const snap: Snapshot = { content, rendered_content: rendered, timestamp: e.timestamp, topic, user_id: e.user_id ?? null };
    if (typeof e.prev_topic === 'string') snap.prev_topic = topic = topicName(e.prev_topic);
    if (typeof e.prev_content === 'string') {
      snap.prev_content = content = e.prev_content;
      snap.prev_rendered_content = e.prev_rendered_content;
      snap.content_html_diff = highlightHtmlDifferences(String(e.prev_rendered_content ?? ''), rendered);
      rendered = String(e.prev_rendered_content ?? '');
    }
    if (e.prev_stream !== undefined) Object.assign(snap, { prev_stream: e.prev_stream, stream: e.stream });
    snapshots.push(snap);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: message.dateSent, topic, user_id: message.senderId });

  // With history limited to moves, content-only edits disappear and mixed ones lose their content fields,
  // as the reference server shows them.
  const visible = policy === 'moves'
    ? snapshots.flatMap((s) => {
        if (!('prev_content' in s)) return [s];
        if (!isMove(s)) return [];
        const rest = { ...s };
        for (const k of ['prev_content', 'prev_rendered_content', 'content_html_diff']) delete rest[k];
        return [rest];
      })
    : snapshots;
  return visible.reverse();
}
