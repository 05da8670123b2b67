// Reading messages: narrows resolved against the caller's access, the anchor window, single messages.
import type { App } from '../app.js';
import { mapInSlices } from '../lib/pace.js';
import { ApiError, MissingArgumentError } from '../lib/errors.js';
import { hasContentAccess, hasMetadataAccess, isGuest, type Viewer } from '../permissions/channels.js';
import type { Db } from '../store/db.js';
import { groupsOfUser } from '../store/groups.js';
import { firstUnreadId, matchingIds, messageWindow, type NegatableTerm, type Scope } from '../store/message-query.js';
import { dmMembers, findDmRecipient, findMessages, flagNames, topicKey, userMessageFlags, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream, findStreamByName, listStreams, type Stream } from '../store/streams.js';
import { subscriptionsOfUser } from '../store/subscriptions.js';
import { findUser, findUsers, type User } from '../store/users.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { userByEmailFor } from './users.js';
import { displayTopic, formatMessage, type MessageFlavour } from '../format/messages.js';
import { searchFields } from '../format/search-highlight.js';
import { parseSearch, searchStems } from '../store/search.js';
import { LIMITS } from '../lib/limits.js';
import { reactionsForMessages } from './reactions.js';
import { topicLinker } from './linkifiers.js';
import { accessibleBy, canAccessUser } from '../permissions/users.js';
import { unknownReactor, unknownSender } from '../format/users.js';
import { resolveWithOperator } from './narrow-with.js';
import { submessagesOf } from '../store/submessages.js';

export type RawTerm = { operator: string; operand: unknown; negated: boolean };

// Far more terms than any client combines; each becomes a condition in one query, and the databases bound how
// deep a query's expression may be.
export const MAX_NARROW_TERMS = 100;
export const tooManyTerms = () => new ApiError(`Invalid narrow: more than ${MAX_NARROW_TERMS} terms`, 'BAD_NARROW');

// Every searched word and quoted phrase adds to the query (a phrase is a condition of its own), so a narrow's
// `search` operands together are bounded as well.
export function checkSearchTerms(terms: { operator: string; operand: unknown }[]): void {
  let n = 0;
  for (const t of terms) {
    if (t.operator.replace(/^-/, '') !== 'search' || typeof t.operand !== 'string') continue;
    const { words, phrases } = parseSearch(t.operand);
    n += words.length + phrases.length;
  }
  if (n > LIMITS.searchTermsPerNarrow) {
    throw new ApiError(`Invalid narrow: more than ${LIMITS.searchTermsPerNarrow} search words and phrases`, 'BAD_NARROW');
  }
}

// Narrows arrive as [operator, operand] pairs or {operator, operand, negated} objects.
export function parseNarrow(raw: unknown): RawTerm[] {
  if (!Array.isArray(raw)) throw new ApiError('Invalid narrow', 'BAD_NARROW');
  if (raw.length > MAX_NARROW_TERMS) throw tooManyTerms();
  const terms = raw.map((t) => {
    if (Array.isArray(t) && t.length === 2 && typeof t[0] === 'string') return { operator: t[0], operand: t[1], negated: false };
    if (t && typeof t === 'object' && typeof (t as RawTerm).operator === 'string' && 'operand' in t) {
      return { operator: (t as RawTerm).operator, operand: (t as RawTerm).operand, negated: (t as RawTerm).negated === true };
    }
    throw new ApiError('Invalid narrow', 'BAD_NARROW');
  });
  checkSearchTerms(terms);
  return terms;
}

const bad = (what: string) => new ApiError(`Invalid narrow operator: ${what}`, 'BAD_NARROW');

export interface Reader {
  viewer: Viewer;
  subs: Map<number, { active: boolean }>;
}

export async function readerOf(db: Db, user: User): Promise<Reader> {
  const subs = new Map((await subscriptionsOfUser(db, user.id)).map((s) => [s.streamId, s]));
  return { viewer: { user, groups: await groupsOfUser(db, user.id) }, subs };
}

const historyReadable = (r: Reader, s: Stream) => s.historyPublicToSubscribers && hasContentAccess(r.viewer, s, r.subs.get(s.id) as never);

// A user named by id or e-mail; an address hidden from the reader names nobody (userByEmailFor).
async function userByOperand(db: Db, realm: Realm, reader: Reader, placeholderDomain: string, operand: unknown): Promise<User | undefined> {
  if (typeof operand === 'number') return findUser(db, realm.id, operand);
  if (typeof operand !== 'string') return undefined;
  if (/^\d+$/.test(operand)) return findUser(db, realm.id, Number(operand));
  return userByEmailFor(db, realm, placeholderDomain, reader.viewer.user, operand);
}

// Resolves names to ids and picks the scope: a channel whose history the caller may read is searched in full;
// everything else only among the messages the caller received. `placeholderDomain`: the organization's, for users
// named by e-mail.
export async function resolveNarrow(db: Db, realm: Realm, reader: Reader, given: RawTerm[], placeholderDomain: string): Promise<{ terms: NegatableTerm[]; scope: Scope; near?: number }> {
  const terms: NegatableTerm[] = [];
  let scope: Scope = { kind: 'user' };
  let near: number | undefined;
  const me = reader.viewer.user;
  const raw = await resolveWithOperator(db, realm, me, given);
  for (const { operator, operand, negated } of raw) {
    switch (operator) {
      case 'stream':
      case 'channel': {
        const s = typeof operand === 'number' || (typeof operand === 'string' && /^\d+$/.test(operand))
          ? await findStream(db, realm.id, Number(operand))
          : typeof operand === 'string' ? await findStreamByName(db, realm.id, operand) : undefined;
        if (!s || !hasMetadataAccess(reader.viewer, s, reader.subs.get(s.id) as never)) throw bad(`unknown channel ${String(operand)}`);
        terms.push({ op: 'channel', streamId: s.id, negated });
        if (!negated && historyReadable(reader, s)) scope = { kind: 'channels', streamIds: [s.id] };
        break;
      }
      case 'streams':
      case 'channels': {
        if (operand !== 'public' && operand !== 'web-public') throw bad('invalid channels operand');
        if (negated) throw bad('channels cannot be negated');
        const streams = (await listStreams(db, realm.id)).filter((s) => !s.inviteOnly && (operand === 'public' ? !isGuest(me) || s.isWebPublic : s.isWebPublic) && historyReadable(reader, s));
        scope = { kind: 'channels', streamIds: streams.map((s) => s.id) };
        break;
      }
      case 'topic':
      case 'subject':
        if (typeof operand !== 'string') throw bad('invalid topic');
        terms.push({ op: 'topic', topicKey: topicKey(operand === '(no topic)' ? '' : operand), negated });
        break;
      case 'sender': {
        const u = await userByOperand(db, realm, reader, placeholderDomain, operand);
        if (!u) throw bad(`unknown user ${String(operand)}`);
        terms.push({ op: 'sender', userId: u.id, negated });
        break;
      }
      case 'dm':
      case 'pm-with': {
        const list = Array.isArray(operand) ? operand : typeof operand === 'string' ? operand.split(',').map((s) => s.trim()) : [operand];
        const users: User[] = [];
        for (const item of list) {
          const u = await userByOperand(db, realm, reader, placeholderDomain, item);
          if (!u) throw bad(`unknown user in ${String(operand)}`);
          users.push(u);
        }
        terms.push({ op: 'dm', recipientId: await findDmRecipient(db, [me.id, ...users.map((u) => u.id)]), negated });
        break;
      }
      case 'dm-including':
      case 'group-pm-with': {
        const u = await userByOperand(db, realm, reader, placeholderDomain, operand);
        if (!u) throw bad(`unknown user ${String(operand)}`);
        terms.push({ op: 'dm-including', userId: u.id, negated });
        break;
      }
      case 'is': {
        const what = operand === 'private' ? 'dm' : operand;
        if (!['dm', 'starred', 'mentioned', 'unread', 'resolved', 'alerted'].includes(what as string)) throw bad(`unknown 'is' operand ${String(operand)}`);
        terms.push({ op: 'is', what: what as 'dm', negated });
        break;
      }
      case 'has':
        if (!['link', 'image', 'attachment'].includes(operand as string)) throw bad(`unknown 'has' operand ${String(operand)}`);
        terms.push({ op: 'has', what: operand as 'link', negated });
        break;
      case 'id':
      case 'near': {
        const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d+$/.test(operand) ? Number(operand) : NaN;
        if (!Number.isSafeInteger(id)) throw bad(`invalid ${operator} operand`);
        if (operator === 'near') near = id;
        else terms.push({ op: 'id', messageId: id, negated });
        break;
      }
      case 'search':
        if (typeof operand !== 'string') throw bad('invalid search operand');
        if (operand.trim()) terms.push({ op: 'search', text: operand, negated });
        break;
      default:
        throw bad(`unknown operator ${operator}`);
    }
  }
  return { terms, scope, near };
}

// Reads committed state only (the read pool): called after any change it shows was made.
export async function formatMessages(app: App, realm: Realm, user: User, messages: Message[], flavour: MessageFlavour) {
  const db = app.reads;
  const flags = await userMessageFlags(db, user.id, messages.map((m) => m.id));
  const members = await dmMembers(db, [...new Set(messages.filter((m) => m.streamId === null).map((m) => m.recipientId))]);
  const userIds = new Set<number>(messages.map((m) => m.senderId));
  for (const ids of members.values()) ids.forEach((id) => userIds.add(id));
  const users = new Map((await findUsers(db, realm.id, [...userIds])).map((u) => [u.id, u]));
  const streamIds = [...new Set(messages.filter((m) => m.streamId !== null).map((m) => m.streamId!))];
  const streamNames = new Map((await listStreams(db, realm.id)).filter((s) => streamIds.includes(s.id)).map((s) => [s.id, s.name]));
  const ids = messages.map((m) => m.id);
  const lookups = {
    realm, users, streamNames, dmMembers: members, reactions: await reactionsForMessages(db, ids), topicLinks: await topicLinker(db, realm.id),
    submessages: (await submessagesOf(db, ids)) as unknown as Map<number, Record<string, unknown>[]>,
  };
  const formatted = await mapInSlices(messages, (m) => ({
    ...formatMessage(m, lookups, flavour),
    flags: flags.has(m.id) ? flagNames(flags.get(m.id)!) : ['read', 'historical'],
  }));
  return hideInaccessibleUsers(db, realm, user, formatted, realmFakeEmailDomain(app, realm));
}

// A guest limited by can_access_all_users_group sees senders and reacting users they may not access (who posted
// to a channel unsubscribed, or have left it since) as placeholders, as the reference server shows them.
async function hideInaccessibleUsers(db: Db, realm: Realm, viewer: User, messages: Record<string, unknown>[], fakeDomain: string) {
  const accessible = await accessibleBy(db, realm, viewer);
  if (!accessible) return messages;
  const ids = new Set<number>();
  for (const m of messages) {
    ids.add(m.sender_id as number);
    for (const r of m.reactions as { user_id: number }[]) ids.add(r.user_id);
  }
  const hidden = new Set((await findUsers(db, realm.id, [...ids])).filter((u) => !canAccessUser(accessible, u)).map((u) => u.id));
  if (!hidden.size) return messages;
  return messages.map((m) => ({
    ...m,
    ...(hidden.has(m.sender_id as number) ? unknownSender(m.sender_id as number, fakeDomain) : {}),
    reactions: (m.reactions as Record<string, unknown>[]).map((r) =>
      hidden.has(r.user_id as number) ? { ...r, user: { ...(r.user as object), ...unknownReactor(r.user_id as number, fakeDomain) } } : r,
    ),
  }));
}

export interface WindowInput {
  anchor: string;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: RawTerm[];
}

export interface FetchInput extends WindowInput, MessageFlavour {}

export const MAX_MESSAGES_PER_FETCH = 5000;
// The anchor the reference server reports for `newest` (and `first_unread` with nothing unread); clients such
// as zulip-terminal compare the reply's anchor with it.
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

function parseAnchor(raw: string): number | 'first_unread' {
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'oldest') return 0;
  if (raw === 'first_unread') return raw;
  if (/^-?\d+$/.test(raw.trim())) return Math.min(Math.max(Number(raw), 0), LARGER_THAN_MAX_MESSAGE_ID);
  throw new ApiError('Invalid anchor', 'BAD_REQUEST', 400, { var_name: 'anchor' });
}

// The ids of a narrow around an anchor, with what the reply tells about them. An anchor at either end fetches
// only towards the other one.
export async function narrowWindow(app: App, realm: Realm, user: User, input: WindowInput) {
  const db = app.reads;
  const reader = await readerOf(db, user);
  const { terms, scope, near } = await resolveNarrow(db, realm, reader, input.narrow, realmFakeEmailDomain(app, realm));
  let anchor = parseAnchor(input.anchor);
  if (anchor === 'first_unread') anchor = near ?? (await firstUnreadId(db, realm.id, user.id, terms)) ?? LARGER_THAN_MAX_MESSAGE_ID;
  const toOldest = anchor === 0;
  const toNewest = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const w = await messageWindow(db, realm.id, user.id, scope, terms, anchor, toOldest ? 0 : input.numBefore, toNewest ? 0 : input.numAfter, input.includeAnchor);
  return {
    ids: w.ids,
    terms,
    found: { anchor, found_anchor: w.foundAnchor, found_oldest: toOldest || w.foundOldest, found_newest: toNewest || w.foundNewest },
  };
}

// Search narrows highlight what matched, in match_content and match_subject (§4.10).
function searchHighlights(terms: NegatableTerm[]): Set<string> | null {
  const texts = terms.flatMap((t) => (t.op === 'search' && !t.negated ? [t.text] : []));
  return texts.length ? searchStems(texts) : null;
}

export async function accessMessageWindow(app: App, realm: Realm, user: User, input: FetchInput) {
  if (input.numBefore + input.numAfter > MAX_MESSAGES_PER_FETCH) throw new ApiError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  const { ids, terms, found } = await narrowWindow(app, realm, user, input);
  return { messages: await formatFound(app, realm, user, ids, terms, input), ...found, history_limited: false };
}

// The found messages as the reply lists them, with search highlights when the narrow searched.
async function formatFound(app: App, realm: Realm, user: User, ids: number[], terms: NegatableTerm[], input: MessageFlavour) {
  const rows = await findMessages(app.reads, realm.id, ids);
  let messages: Record<string, unknown>[] = await formatMessages(app, realm, user, rows, input);
  const stems = searchHighlights(terms);
  if (stems) {
    let i = 0;
    messages = await mapInSlices(messages, (m) => {
      const row = rows[i++];
      return { ...m, ...searchFields(row.renderedContent, displayTopic(row.topic, row.streamId !== null, input.allowEmptyTopicName), stems) };
    });
  }
  return messages;
}

// GET /messages?message_ids=[…] (feature level 300): of these messages, those the narrow finds, which searches
// the caller's own messages unless it names a channel whose history they may read; so exactly what a window of
// the same narrow would show of them. The reply has no anchor and promises nothing about the ends.
async function accessListedMessages(app: App, realm: Realm, user: User, requested: number[], narrow: RawTerm[], flavour: MessageFlavour) {
  if (requested.length > MAX_MESSAGES_PER_FETCH) throw new ApiError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  const { terms, scope } = await resolveNarrow(app.reads, realm, await readerOf(app.reads, user), narrow, realmFakeEmailDomain(app, realm));
  const ids = (await matchingIds(app.reads, realm.id, user.id, scope, terms, [...new Set(requested)])).sort((a, b) => a - b);
  const messages = await formatFound(app, realm, user, ids, terms, flavour);
  return { messages, found_anchor: false, found_oldest: false, found_newest: false, history_limited: false };
}

export interface FetchRequest extends MessageFlavour {
  anchor?: string;
  useFirstUnreadAnchor: boolean;
  numBefore?: number;
  numAfter?: number;
  includeAnchor: boolean;
  narrow: RawTerm[];
  messageIds?: number[];
}

const ANCHOR_PARAMETERS = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';

// GET /messages: either a list of ids or a window around an anchor, whose sizes are then required.
export async function accessMessages(app: App, realm: Realm, user: User, r: FetchRequest) {
  if (r.messageIds !== undefined) {
    if (r.numBefore || r.numAfter || r.anchor !== undefined || r.useFirstUnreadAnchor) {
      throw new ApiError(`Unsupported parameter combination: ${ANCHOR_PARAMETERS}`, 'BAD_REQUEST', 400, { parameters: ANCHOR_PARAMETERS });
    }
    return accessListedMessages(app, realm, user, r.messageIds, r.narrow, r);
  }
  if (r.numBefore === undefined) throw new MissingArgumentError('num_before');
  if (r.numAfter === undefined) throw new MissingArgumentError('num_after');
  const anchor = r.useFirstUnreadAnchor ? 'first_unread' : (r.anchor ?? 'newest');
  return accessMessageWindow(app, realm, user, { ...r, anchor, numBefore: r.numBefore, numAfter: r.numAfter });
}

// GET /messages/matches_narrow: the search fields of each of these messages that match the narrow.
export async function accessMatchingMessages(app: App, realm: Realm, user: User, ids: number[], narrow: RawTerm[]) {
  const reader = await readerOf(app.reads, user);
  const { terms, scope } = await resolveNarrow(app.reads, realm, reader, narrow, realmFakeEmailDomain(app, realm));
  const matching = await findMessages(app.reads, realm.id, await matchingIds(app.reads, realm.id, user.id, scope, terms, ids));
  const stems = searchHighlights(terms) ?? new Set<string>();
  return Object.fromEntries(matching.map((m) => [m.id, searchFields(m.renderedContent, m.topic, stems)]));
}
