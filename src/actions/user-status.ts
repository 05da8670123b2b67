// User status (§4.13): a short text and an emoji; only the fields passed change. `away` is the deprecated
// inverse of the presence_enabled setting (invisible mode).
import type { App } from '../app.js';
import { checkEmoji, reactionType, resolveEmoji, STATUS_EMOJI_MESSAGES } from '../emoji/index.js';
import { ApiError } from '../http/errors.js';
import { userSettings } from '../state/user-settings.js';
import type { Db } from '../store/db.js';
import { touchPresence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { listRealmEmoji } from '../store/realm-emoji.js';
import { listUsers, updateUser, type User } from '../store/users.js';
import { inTransaction } from './transaction.js';

// Kept with the user's settings under a bookkeeping key (names starting with `_` are not settings).
const STATUS = '_status';

interface Status {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface StatusInput {
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
  away?: boolean;
}

export async function doUpdateStatus(app: App, realm: Realm, user: User, input: StatusInput): Promise<void> {
  if (Object.values(input).every((v) => v === undefined)) throw new ApiError('Client did not pass any new values.');
  if (input.emojiName === undefined && (input.emojiCode !== undefined || input.reactionType !== undefined)) {
    throw new ApiError('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  const next: Status = { ...((user.settings[STATUS] as Status | undefined) ?? {}) };
  const event: Record<string, unknown> = { type: 'user_status', user_id: user.id };
  if (input.statusText !== undefined) next.status_text = event.status_text = input.statusText.trim();
  if (input.emojiName !== undefined) {
    if (input.emojiName === '') {
      Object.assign(next, { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
    } else {
      const custom = (await listRealmEmoji(app.db, realm.id)).map((e) => ({ id: e.id, name: e.name, deactivated: e.deactivated }));
      let code = input.emojiCode;
      let type = input.reactionType === undefined ? undefined : reactionType(input.reactionType);
      if (input.reactionType !== undefined && !type) throw new ApiError(`Invalid reaction_type: ${input.reactionType}`);
      if (code === undefined) {
        const resolved = resolveEmoji(custom, input.emojiName);
        code = resolved.code;
        type ??= resolved.type;
      }
      type ??= /^\d+$/.test(code) ? 'realm_emoji' : code === 'zulip' ? 'zulip_extra_emoji' : 'unicode_emoji';
      checkEmoji(custom, input.emojiName, code, type, STATUS_EMOJI_MESSAGES);
      Object.assign(next, { emoji_name: input.emojiName, emoji_code: code, reaction_type: type });
    }
    Object.assign(event, { emoji_name: next.emoji_name, emoji_code: next.emoji_code, reaction_type: next.reaction_type });
  }
  await inTransaction(app, async (tx, emit) => {
    const settings: Record<string, unknown> = { ...user.settings, [STATUS]: next };
    if (input.away !== undefined && userSettings(user).presence_enabled === input.away) {
      settings.presence_enabled = !input.away;
      await touchPresence(tx, realm.id, user.id);
      emit(realm.id, { type: 'user_settings', op: 'update', property: 'presence_enabled', value: !input.away }, [user.id]);
    }
    if (input.away !== undefined) event.away = input.away;
    await updateUser(tx, user.id, { settings });
    emit(realm.id, event, null);
  });
}

// The register block: every user with a status set, keyed by user id.
export async function userStatusState(db: Db, realm: Realm): Promise<{ user_status: Record<string, Status & { away?: boolean }> }> {
  const out: Record<string, Status & { away?: boolean }> = {};
  for (const u of await listUsers(db, realm.id)) {
    if (!u.isActive) continue;
    const s = (u.settings[STATUS] as Status | undefined) ?? {};
    const entry: Status & { away?: boolean } = {};
    if (s.status_text) entry.status_text = s.status_text;
    if (s.emoji_name) Object.assign(entry, { emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type });
    if (!userSettings(u).presence_enabled) entry.away = true;
    if (Object.keys(entry).length) out[u.id] = entry;
  }
  return { user_status: out };
}
