// The `with` narrow operator (feature level 271): a message id standing for the conversation that message is in
// now, wherever it moved. It is replaced by that conversation's channel and topic, or its direct-message members,
// as the reference server's update_narrow_terms_containing_with_operator does.
import { ApiError } from '../lib/errors.js';
import type { Db } from '../store/db.js';
import { dmMembers } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { accessMessage } from './message-access.js';

export type Term = { operator: string; operand: unknown; negated: boolean };

const invalid = () => new ApiError("Invalid narrow operator: Invalid 'with' operator", 'BAD_NARROW');
const CONVERSATION = new Set(['stream', 'channel', 'topic', 'dm', 'pm-with']);

// Whether the other terms name a conversation by themselves (a direct-message one, or a channel and a topic).
function definesConversation(terms: Term[]): boolean {
  const ops = new Set(terms.map((t) => t.operator));
  return ops.has('dm') || ops.has('pm-with') || ((ops.has('stream') || ops.has('channel')) && ops.has('topic'));
}

export async function resolveWithOperator(db: Db, realm: Realm, user: User, terms: Term[]): Promise<Term[]> {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (!withTerms.length) return terms;
  if (withTerms.length > 1) throw new ApiError("Duplicate 'with' operators.", 'BAD_NARROW');
  const rest = terms.filter((t) => t.operator !== 'with');
  const operand = withTerms[0].operand;
  const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d+$/.test(operand.trim()) ? Number(operand) : NaN;
  if (!Number.isSafeInteger(id)) throw invalid();
  let found;
  try {
    found = await accessMessage(db, realm, user, id);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // A message the caller may not read leaves a narrow that names its conversation as it is.
    if (definesConversation(rest)) return rest;
    throw invalid();
  }
  const others = rest.filter((t) => !CONVERSATION.has(t.operator));
  const { message } = found;
  if (message.streamId !== null) {
    return [{ operator: 'channel', operand: message.streamId, negated: false }, { operator: 'topic', operand: message.topic, negated: false }, ...others];
  }
  const members = (await dmMembers(db, [message.recipientId])).get(message.recipientId) ?? [user.id];
  const named = members.filter((m) => m !== user.id);
  return [{ operator: 'dm', operand: named.length ? named : [user.id], negated: false }, ...others];
}
