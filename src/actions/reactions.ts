// Emoji reactions on messages (§4.21): anyone who may access a message may react to it, except in an archived
// channel; each change goes to everyone who may access it (message-audience.ts).
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { checkEmoji, EXTRA_EMOJI, reactionType, resolveEmoji, type CustomEmoji, type ReactionType } from '../emoji/index.js';
import type { Db, Tx } from '../store/db.js';
import { addHistoricalRows, FLAG_BITS } from '../store/messages.js';
import { deleteReaction, findReaction, insertReaction, reactionsOf, type Reaction } from '../store/reactions.js';
import { listRealmEmoji } from '../store/realm-emoji.js';
import type { Realm } from '../store/realms.js';
import type { Stream } from '../store/streams.js';
import { isUniqueViolation } from '../store/tx.js';
import type { User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { messageAudience } from './message-audience.js';
import { inTransaction, type Emit } from './transaction.js';
import { blindAmong } from '../permissions/users.js';
import { unknownReactor } from '../format/users.js';
import { realmFakeEmailDomain } from './users.js';

export interface ReactionInput {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

const alreadyExists = () => new ApiError('Reaction already exists.', 'REACTION_ALREADY_EXISTS');

// The reactions of messages as message objects carry them (§2.4), oldest first.
export async function reactionsForMessages(db: Db, messageIds: number[]): Promise<Map<number, Record<string, unknown>[]>> {
  const out = new Map<number, Record<string, unknown>[]>();
  for (const r of await reactionsOf(db, messageIds)) {
    const list = out.get(r.messageId) ?? [];
    list.push({
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      user_id: r.userId,
      user: { id: r.userId, email: r.email, full_name: r.fullName, is_mirror_dummy: false },
    });
    out.set(r.messageId, list);
  }
  return out;
}

function parseType(raw: string | undefined): ReactionType | undefined {
  if (raw === undefined) return undefined;
  const type = reactionType(raw);
  if (!type) throw new ApiError('Invalid emoji type.');
  return type;
}

// Everyone who may access the message; guests who may not access the reacting user see it as a placeholder.
async function emitReaction(app: App, tx: Tx, emit: Emit, realm: Realm, user: User, stream: Stream | null, op: 'add' | 'remove', r: Omit<Reaction, 'id'>): Promise<void> {
  const audience = [...(await messageAudience(tx, realm.id, stream, [r.messageId], r.messageId)).keys()];
  const blind = await blindAmong(tx, realm, user, audience);
  const unknown = blind.size ? { _blind: [...blind], _blind_patch: { user: { user_id: user.id, ...unknownReactor(user.id, realmFakeEmailDomain(app, realm)) } } } : {};
  emit(realm.id, {
    type: 'reaction',
    op,
    message_id: r.messageId,
    emoji_name: r.emojiName,
    emoji_code: r.emojiCode,
    reaction_type: r.reactionType,
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.fullName },
    ...unknown,
  }, audience);
}

export async function doAddReaction(app: App, realm: Realm, user: User, messageId: number, input: ReactionInput & { emojiName: string }): Promise<void> {
  try {
    await inTransaction(app, async (tx, emit) => {
      const { message, flags, stream } = await accessMessage(tx, realm, user, messageId, { modifying: true });
      const custom = await listRealmEmoji(tx, realm.id);
      let type = parseType(input.reactionType);
      let code = input.emojiCode;
      if (code === undefined || type === undefined) {
        const found = resolveEmoji(custom, input.emojiName);
        code ??= found.code;
        type ??= found.type;
      }
      if (await findReaction(tx, message.id, type, code, user.id)) throw alreadyExists();
      // Joining an existing reaction keeps its name, and needs no check: its emoji may since have been
      // deactivated or renamed, and the vote should still count.
      const existing = await findReaction(tx, message.id, type, code);
      if (!existing) checkEmoji(custom, input.emojiName, code, type);
      const reaction = { messageId: message.id, userId: user.id, emojiName: existing?.emojiName ?? input.emojiName, emojiCode: code, reactionType: type };
      // Reacting to a channel message one never received gives a row for it, as reading it would.
      if (flags === undefined) await addHistoricalRows(tx, user.id, [message.id], FLAG_BITS.read | FLAG_BITS.historical);
      await insertReaction(tx, reaction);
      await emitReaction(app, tx, emit, realm, user, stream, 'add', reaction);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists();
    throw err;
  }
}

// Without a type, the one the name resolves to (when it gives this code), else the namespace the code looks like.
function guessType(custom: CustomEmoji[], name: string | undefined, code: string): ReactionType {
  if (name !== undefined) {
    try {
      const found = resolveEmoji(custom, name);
      if (found.code === code) return found.type;
    } catch {
      // an unknown name says nothing about the code
    }
  }
  if (code === EXTRA_EMOJI) return 'zulip_extra_emoji';
  if (/^\d+$/.test(code) && custom.some((e) => String(e.id) === code)) return 'realm_emoji';
  return 'unicode_emoji';
}

export async function doRemoveReaction(app: App, realm: Realm, user: User, messageId: number, input: ReactionInput): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    const { message, stream } = await accessMessage(tx, realm, user, messageId, { modifying: true });
    const custom = await listRealmEmoji(tx, realm.id);
    let type = parseType(input.reactionType);
    let code = input.emojiCode;
    if (code === undefined) {
      if (input.emojiName === undefined) throw new ApiError('At least one of the following arguments must be present: emoji_name, emoji_code');
      const found = resolveEmoji(custom, input.emojiName);
      code = found.code;
      type ??= found.type;
    }
    type ??= guessType(custom, input.emojiName, code);
    const reaction = await findReaction(tx, message.id, type, code, user.id);
    if (!reaction) throw new ApiError("Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
    await deleteReaction(tx, reaction.id);
    await emitReaction(app, tx, emit, realm, user, stream, 'remove', reaction);
  });
}
