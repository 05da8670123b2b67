// The user_status register block.
import { userSetting } from './user-settings.js';
import { Pacer } from '../lib/pace.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { listUsers, type User } from '../store/users.js';
import { accessibleBy, canAccessUser } from '../permissions/users.js';

// The register block: every user with a status set whom the viewer may access, keyed by user id.
export async function userStatusState(db: Db, realm: Realm, viewer: User): Promise<{ user_status: Record<string, Status & { away?: boolean }> }> {
  const out: Record<string, Status & { away?: boolean }> = {};
  const accessible = await accessibleBy(db, realm, viewer);
  const pacer = new Pacer();
  for (const u of await listUsers(db, realm.id)) {
    if (pacer.due()) await pacer.pause();
    if (!u.isActive || !canAccessUser(accessible, u)) continue;
    const entry = statusOf(u);
    if (Object.keys(entry).length) out[u.id] = entry;
  }
  return { user_status: out };
}

export interface Status {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

// A user's status as register and GET /users/{id}/status show it: only what is set.
export function statusOf(u: User): Status & { away?: boolean } {
  const s = (u.settings[STATUS] as Status | undefined) ?? {};
  const entry: Status & { away?: boolean } = {};
  if (s.status_text) entry.status_text = s.status_text;
  if (s.emoji_name) Object.assign(entry, { emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type });
  if (!userSetting(u, 'presence_enabled')) entry.away = true;
  return entry;
}

// Kept with the user's settings under a bookkeeping key (names starting with `_` are not settings).
export const STATUS = '_status';
