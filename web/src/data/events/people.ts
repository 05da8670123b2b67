// Events about people: the user list, presence, typing notices and statuses.
import type { ServerEvent, User } from '../../api/types';
import type { Draft } from '../draft';
import { conversationIds } from '../narrow';
import { dmConvKey, streamConvKey } from '../unread';
import { meWithRole } from '../state';

function onRealmUser(d: Draft, e: ServerEvent): void {
  const person = e.person as Partial<User> & { user_id: number };
  const users = d.mut('users');
  if (e.op === 'add') users.set(person.user_id, person as User);
  else if (e.op === 'remove') {
    const u = users.get(person.user_id);
    if (u) users.set(u.user_id, { ...u, is_active: false });
  } else if (e.op === 'update') {
    const u = users.get(person.user_id);
    // A profile field's new value comes as custom_profile_field: { id, value, rendered_value }.
    const field = (e.person as { custom_profile_field?: { id: number; value: string | null; rendered_value?: string } }).custom_profile_field;
    if (u && field) {
      const data = { ...(u.profile_data ?? {}) };
      if (field.value === null) delete data[field.id];
      else data[field.id] = { value: field.value, rendered_value: field.rendered_value };
      users.set(u.user_id, { ...u, profile_data: data });
    } else if (u) users.set(u.user_id, { ...u, ...person });
    if (person.user_id === d.get('me').userId) {
      if (typeof person.full_name === 'string') d.set('me', { ...d.get('me'), fullName: person.full_name });
      if (typeof person.role === 'number') d.set('me', meWithRole(d.get('me'), person.role));
      if (typeof person.delivery_email === 'string') d.set('me', { ...d.get('me'), deliveryEmail: person.delivery_email });
    }
  }
}

function onPresence(d: Draft, e: ServerEvent): void {
  const presences = e.presences as Record<string, { active_timestamp: number; idle_timestamp: number }> | undefined;
  if (!presences) return;
  const map = d.mut('presence');
  for (const [id, p] of Object.entries(presences)) map.set(Number(id), p);
}

// Typing notices expire on their own unless renewed (the sender renews them while typing).
function onTyping(d: Draft, e: ServerEvent, now: number): void {
  const sender = (e.sender as { user_id: number }).user_id;
  const me = d.get('me').userId;
  if (sender === me) return;
  const key = e.message_type === 'stream'
    ? streamConvKey(e.stream_id as number, e.topic as string)
    : dmConvKey(conversationIds([...((e.recipients as { user_id: number }[]) ?? []).map((r) => r.user_id), sender], me));
  const typists = new Map(d.get('typing').get(key) ?? []);
  if (e.op === 'start') typists.set(sender, now + d.get('realm').typingStartedExpiryMs);
  else typists.delete(sender);
  if (typists.size) d.mut('typing').set(key, typists);
  else if (d.get('typing').has(key)) d.mut('typing').delete(key);
}

function onUserStatus(d: Draft, e: ServerEvent): void {
  const id = e.user_id as number;
  const old = d.get('userStatus').get(id) ?? {};
  const next = { ...old };
  for (const k of ['status_text', 'emoji_name', 'away'] as const) if (k in e) (next as Record<string, unknown>)[k] = e[k];
  d.mut('userStatus').set(id, next);
}

export const peopleEvents: Record<string, (d: Draft, e: ServerEvent, now: number) => void> = {
  realm_user: onRealmUser,
  presence: onPresence,
  typing: onTyping,
  user_status: onUserStatus,
};

// Typing notices past their expiry, dropped by the app's clock (typing.ts) without an event.
export function expireTyping(d: Draft, now: number): void {
  for (const [key, typists] of d.get('typing')) {
    const live = new Map([...typists].filter(([, until]) => until > now));
    if (live.size === typists.size) continue;
    if (live.size) d.mut('typing').set(key, live);
    else d.mut('typing').delete(key);
  }
}
