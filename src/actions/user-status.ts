// User status (§4.13): a short text and an emoji; only the fields passed change. `away` is the deprecated
// inverse of the presence_enabled setting (invisible mode).
import type { App } from '../app.js';
import { checkEmoji, reactionType, resolveEmoji, STATUS_EMOJI_MESSAGES, type ReactionType } from '../emoji/index.js';
import { ApiError } from '../lib/errors.js';
import { codePointLength } from '../lib/text.js';
import type { Realm } from '../store/realms.js';
import { listRealmEmoji } from '../store/realm-emoji.js';
import { lockUsers, updateUser, type User } from '../store/users.js';
import { checkHuman } from './checks.js';
import { applyContext, applySettings } from './settings.js';
import { inTransaction } from './transaction.js';
import { accessUser } from './users.js';
import { audienceOf } from '../permissions/users.js';
import { STATUS, type Status, statusOf } from '../state/user-status.js';

export interface StatusInput {
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
  away?: boolean;
}

const MAX_STATUS_TEXT = 60;

// Resolves and checks the emoji to set, as reactions do; a missing code or type is taken from the name.
async function checkStatusEmoji(app: App, realm: Realm, name: string, code?: string, rawType?: string): Promise<Required<Pick<Status, 'emoji_name' | 'emoji_code' | 'reaction_type'>>> {
  if (name === '') return { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' };
  let type: ReactionType | undefined;
  if (rawType !== undefined) type = reactionType(rawType) ?? undefined;
  if (rawType !== undefined && !type) throw new ApiError('Invalid emoji type.');
  const custom = (await listRealmEmoji(app.db, realm.id)).map((e) => ({ id: e.id, name: e.name, deactivated: e.deactivated }));
  if (code === undefined || type === undefined) {
    const resolved = resolveEmoji(custom, name);
    code ??= resolved.code;
    type ??= resolved.type;
  }
  checkEmoji(custom, name, code, type, STATUS_EMOJI_MESSAGES);
  return { emoji_name: name, emoji_code: code, reaction_type: type };
}

export async function doUpdateStatus(app: App, realm: Realm, user: User, input: StatusInput): Promise<void> {
  checkHuman(user);
  const statusText = input.statusText?.trim();
  if (input.away === undefined && statusText === undefined && input.emojiName === undefined) throw new ApiError('Client did not pass any new values.');
  if (statusText !== undefined && codePointLength(statusText) > MAX_STATUS_TEXT) throw new ApiError(`status_text is too long (limit: ${MAX_STATUS_TEXT} characters)`);
  if (input.emojiName === undefined && (input.emojiCode !== undefined || input.reactionType !== undefined)) {
    throw new ApiError('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  const change: Status = {};
  const event: Record<string, unknown> = { type: 'user_status', user_id: user.id };
  if (input.away !== undefined) event.away = input.away;
  if (statusText !== undefined) change.status_text = event.status_text = statusText;
  if (input.emojiName !== undefined) {
    const emoji = await checkStatusEmoji(app, realm, input.emojiName, input.emojiCode, input.reactionType);
    Object.assign(change, emoji);
    Object.assign(event, emoji);
  }
  await inTransaction(app, async (tx, emit) => {
    // Applied to the settings as they are now, locked: a concurrent change of them is kept.
    const now = (await lockUsers(tx, realm.id, [user.id]))[0] ?? user;
    const settings = { ...now.settings, [STATUS]: { ...((now.settings[STATUS] as Status | undefined) ?? {}), ...change } };
    await updateUser(tx, user.id, { settings });
    // `away` is the deprecated spelling of invisible mode: the setting changes with all that follows from it.
    if (input.away !== undefined) {
      await applySettings(applyContext(app, tx, emit, realm), { ...now, settings }, { presence_enabled: !input.away }, true, false);
    }
    emit(realm.id, event, await audienceOf(tx, realm, user));
  });
}

// GET /users/{user_id}/status: one user's, through the user access rule.
export async function accessUserStatus(app: App, realm: Realm, viewer: User, userId: number): Promise<{ status: Status & { away?: boolean } }> {
  return { status: statusOf(await accessUser(app, realm, viewer, { id: userId })) };
}
