// Events about channels: subscriptions (the user's and others'), channels themselves, and topic visibility.
import type { Channel, ServerEvent, Subscription } from '../../api/types';
import type { Draft } from '../draft';
import { topicKey } from '../narrow';

function onSubscription(d: Draft, e: ServerEvent): void {
  switch (e.op) {
    case 'add':
      for (const s of e.subscriptions as Subscription[]) {
        d.mut('subs').set(s.stream_id, s);
        d.mut('channels').set(s.stream_id, s);
      }
      break;
    case 'remove':
      for (const s of e.subscriptions as { stream_id: number }[]) if (d.get('subs').has(s.stream_id)) d.mut('subs').delete(s.stream_id);
      break;
    case 'update': {
      const id = e.stream_id as number;
      const sub = d.get('subs').get(id);
      if (!sub) return;
      const property = e.property as string;
      // in_home_view is the old, inverted name of is_muted.
      const change = property === 'in_home_view' ? { is_muted: !e.value } : { [property]: e.value };
      d.mut('subs').set(id, { ...sub, ...change });
      break;
    }
    case 'peer_add':
    case 'peer_remove': {
      const delta = (e.op === 'peer_add' ? 1 : -1) * (e.user_ids as number[]).length;
      for (const id of e.stream_ids as number[]) {
        const c = d.get('channels').get(id);
        if (c && c.subscriber_count !== undefined) d.mut('channels').set(id, { ...c, subscriber_count: Math.max(0, c.subscriber_count + delta) });
        const s = d.get('subs').get(id);
        if (s && s.subscriber_count !== undefined) d.mut('subs').set(id, { ...s, subscriber_count: Math.max(0, s.subscriber_count + delta) });
      }
      break;
    }
  }
}

function onStream(d: Draft, e: ServerEvent): void {
  switch (e.op) {
    case 'create':
      for (const c of e.streams as Channel[]) d.mut('channels').set(c.stream_id, c);
      break;
    case 'delete': {
      const ids = (e.stream_ids as number[] | undefined) ?? (e.streams as Channel[]).map((c) => c.stream_id);
      for (const id of ids) {
        d.mut('channels').delete(id);
        if (d.get('subs').has(id)) d.mut('subs').delete(id);
      }
      break;
    }
    case 'update': {
      const id = e.stream_id as number;
      const change: Record<string, unknown> = { [e.property as string]: e.value };
      if (e.rendered_description !== undefined) change.rendered_description = e.rendered_description;
      if (e.property === 'invite_only' || e.property === 'is_archived') change[e.property as string] = e.value;
      const c = d.get('channels').get(id);
      if (c) d.mut('channels').set(id, { ...c, ...change });
      const s = d.get('subs').get(id);
      if (s) d.mut('subs').set(id, { ...s, ...change });
      break;
    }
  }
}

function onUserTopic(d: Draft, e: ServerEvent): void {
  const key = topicKey(e.stream_id as number, e.topic_name as string);
  const policy = e.visibility_policy as number;
  if (policy === 0) {
    if (d.get('userTopics').has(key)) d.mut('userTopics').delete(key);
  } else d.mut('userTopics').set(key, policy);
}

export const channelEvents: Record<string, (d: Draft, e: ServerEvent) => void> = {
  subscription: onSubscription,
  stream: onStream,
  user_topic: onUserTopic,
};
