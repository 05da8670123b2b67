// Narrows: lists of terms (operator, operand), in one canonical form inside the app — channel and sender as user
// or channel ids, direct-message conversations as the sorted ids of the other people — with a key per narrow,
// the form the API takes, and which messages a narrow holds when that can be decided here.
import type { Message, Term } from '../api/types';

export type { Term };

const ALIASES: Record<string, string> = { stream: 'channel', subject: 'topic', 'pm-with': 'dm', 'group-pm-with': 'dm-including', streams: 'channels' };

export const canonicalOperator = (op: string) => ALIASES[op] ?? op;

export function dmIds(operand: Term['operand']): number[] {
  const list = Array.isArray(operand) ? operand : String(operand).split(',');
  return [...new Set(list.map((x) => Number(x)).filter((n) => Number.isInteger(n) && n > 0))].sort((a, b) => a - b);
}

// The ids of the other people in a conversation (yourself alone for notes to self).
export function conversationIds(userIds: number[], me: number): number[] {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return others.length ? others : [me];
}

export const dmKey = (others: number[]) => others.join(',');

export function messageDmIds(m: Message, me: number): number[] {
  const recipients = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
  return conversationIds([...recipients, m.sender_id], me);
}

export const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;

// Where a message lives: one key per topic or direct-message conversation.
export function conversationKey(m: Message, me: number): string {
  return m.type === 'stream' ? `s:${topicKey(m.stream_id!, m.subject)}` : `d:${dmKey(messageDmIds(m, me))}`;
}

export function normalizeTerms(terms: Term[]): Term[] {
  return terms.map((t) => {
    const operator = canonicalOperator(t.operator.replace(/^-/, ''));
    const negated = t.negated || t.operator.startsWith('-') || undefined;
    let operand: Term['operand'] = t.operand;
    if (operator === 'dm') operand = dmIds(operand);
    else if (['channel', 'sender', 'dm-including', 'id', 'near', 'with'].includes(operator) && /^\d+$/.test(String(operand))) operand = Number(operand);
    else if (operator === 'is' && operand === 'private') operand = 'dm';
    return negated ? { operator, operand, negated: true } : { operator, operand };
  });
}

export function narrowKey(terms: Term[]): string {
  return normalizeTerms(terms)
    .filter((t) => t.operator !== 'near' && t.operator !== 'with')
    .map((t) => `${t.negated ? '-' : ''}${t.operator}:${Array.isArray(t.operand) ? t.operand.join(',') : String(t.operand).toLowerCase()}`)
    .sort()
    .join('/');
}

// The narrow as GET /messages takes it (a direct-message operand as comma-separated ids).
export function apiNarrow(terms: Term[]): { operator: string; operand: string | number; negated?: boolean }[] {
  return normalizeTerms(terms)
    .filter((t) => t.operator !== 'near' && t.operator !== 'with')
    .map((t) => ({ operator: t.operator, operand: Array.isArray(t.operand) ? t.operand.join(',') : t.operand, ...(t.negated ? { negated: true } : {}) }));
}

const find = (terms: Term[], op: string) => terms.find((t) => t.operator === op && !t.negated);

export const channelOf = (terms: Term[]) => {
  const t = find(terms, 'channel');
  return t ? Number(t.operand) : undefined;
};
export const topicOf = (terms: Term[]) => {
  const t = find(terms, 'topic');
  return t ? String(t.operand) : undefined;
};
export const dmOf = (terms: Term[]) => {
  const t = find(terms, 'dm');
  return t ? dmIds(t.operand) : undefined;
};

// A topic or a direct-message conversation: the views where reading as you scroll applies under policy 2.
export function isConversation(terms: Term[]): boolean {
  const ops = normalizeTerms(terms).filter((t) => !['near', 'with'].includes(t.operator));
  if (ops.length === 1 && ops[0].operator === 'dm') return true;
  return ops.length === 2 && channelOf(ops) !== undefined && topicOf(ops) !== undefined;
}

export interface MatchContext {
  me: number;
  followed?: (streamId: number, topic: string) => boolean;
}

// Whether the message belongs to the narrow: true or false when the app can tell, undefined when only the server
// can (full-text search, attachments).
export function matches(terms: Term[], m: Message, ctx: MatchContext): boolean | undefined {
  let unknown = false;
  for (const t of normalizeTerms(terms)) {
    const r = matchTerm(t, m, ctx);
    if (r === undefined) {
      unknown = true;
      continue;
    }
    if (r === !!t.negated) return false;
  }
  return unknown ? undefined : true;
}

function matchTerm(t: Term, m: Message, ctx: MatchContext): boolean | undefined {
  switch (t.operator) {
    case 'channel':
      return m.type === 'stream' && m.stream_id === t.operand;
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === String(t.operand).toLowerCase();
    case 'dm':
      return m.type === 'private' && dmKey(messageDmIds(m, ctx.me)) === dmKey(t.operand as number[]);
    case 'dm-including':
      return m.type === 'private' && (m.sender_id === t.operand || (Array.isArray(m.display_recipient) && m.display_recipient.some((r) => r.id === t.operand)));
    case 'sender':
      return m.sender_id === t.operand;
    case 'id':
      return m.id === t.operand;
    case 'near':
    case 'with':
      return true;
    case 'channels':
      return m.type === 'stream' ? undefined : false;
    case 'is':
      switch (t.operand) {
        case 'dm':
          return m.type === 'private';
        case 'starred':
          return m.flags.includes('starred');
        case 'mentioned':
          return ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'].some((f) => m.flags.includes(f));
        case 'unread':
          return !m.flags.includes('read');
        case 'resolved':
          return m.type === 'stream' && m.subject.startsWith('✔ ');
        case 'alerted':
          return m.flags.includes('has_alert_word');
        case 'followed':
          return m.type === 'stream' && ctx.followed ? ctx.followed(m.stream_id!, m.subject) : undefined;
        default:
          return undefined;
      }
    default:
      return undefined; // search, has: the server decides
  }
}
