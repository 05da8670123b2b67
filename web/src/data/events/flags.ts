// update_message_flags: read and unread (the unread counts), starred, and any other flag on the copies held.
import type { ServerEvent } from '../../api/types';
import type { Draft } from '../draft';
import { conversationIds } from '../narrow';
import { addUnread, removeUnread } from '../unread';

interface Details {
  type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
  user_ids?: number[];
  mentioned?: boolean;
}

export function setFlag(d: Draft, ids: number[], flag: string, on: boolean): void {
  for (const id of ids) {
    const m = d.get('messages').get(id);
    if (!m || m.flags.includes(flag) === on) continue;
    d.mut('messages').set(id, { ...m, flags: on ? [...m.flags, flag] : m.flags.filter((f) => f !== flag) });
  }
}

export function markRead(d: Draft, ids: number[]): void {
  const unread = d.get('unread');
  if (ids.some((id) => unread.convOf.has(id) || unread.mentions.has(id))) {
    const u = d.mut('unread');
    for (const id of ids) removeUnread(u, id);
  }
  setFlag(d, ids, 'read', true);
}

function onFlags(d: Draft, e: ServerEvent): void {
  const op = (e.op ?? e.operation) as 'add' | 'remove';
  const flag = e.flag as string;
  let ids = (e.messages as number[]) ?? [];
  if (flag === 'read' && op === 'add' && e.all) ids = [...d.get('unread').convOf.keys(), ...d.get('messages').keys()];
  if (flag === 'read') {
    if (op === 'add') markRead(d, ids);
    else {
      const details = (e.message_details ?? {}) as Record<string, Details>;
      const me = d.get('me').userId;
      for (const id of ids) {
        const m = d.get('messages').get(id);
        const det = details[id];
        const mentioned = !!det?.mentioned;
        if (det?.type === 'stream') addUnread(d.mut('unread'), id, { kind: 'stream', streamId: det.stream_id!, topic: det.topic ?? '' }, mentioned);
        else if (det?.type === 'private') addUnread(d.mut('unread'), id, { kind: 'dm', userIds: conversationIds(det.user_ids ?? [], me) }, mentioned);
        else if (m && m.type === 'stream') addUnread(d.mut('unread'), id, { kind: 'stream', streamId: m.stream_id!, topic: m.subject }, mentioned);
      }
      setFlag(d, ids, 'read', false);
    }
    return;
  }
  if (flag === 'starred') {
    const starred = d.mut('starred');
    for (const id of ids) (op === 'add' ? starred.add(id) : starred.delete(id));
  }
  setFlag(d, ids, flag, op === 'add');
}

export const flagEvents: Record<string, (d: Draft, e: ServerEvent) => void> = {
  update_message_flags: onFlags,
};
