// The reference's hash URLs, which other clients produce and parse: #feed, #inbox, #recent, #drafts, and
// #narrow/<operator>/<operand>/… (channel `42-design`, topic, dm `7,9-group`, sender, search, is, has, near, with).
// Names are percent-encoded with `%` written as `.`; a channel's or person's slug after its id is informational.
import { normalizeTerms, type Term } from '../data/narrow';

export type Route =
  | { view: 'inbox' | 'recent' | 'drafts' | 'scheduled' }
  | { view: 'messages'; terms: Term[]; near?: number }; // terms [] is the combined feed

export const FEED: Route = { view: 'messages', terms: [] };

export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.');
}

export function decodeHashComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\./g, '%'));
  } catch {
    return s;
  }
}

export interface Resolver {
  channelIdByName(name: string): number | undefined;
  userIdByEmail(email: string): number | undefined;
}

const NO_RESOLVER: Resolver = { channelIdByName: () => undefined, userIdByEmail: () => undefined };

// `42-design` or a bare name (older links); undefined when it names no channel we know.
function channelOperand(raw: string, r: Resolver): number | string {
  const m = /^(\d+)(?:-|$)/.exec(raw);
  if (m) return Number(m[1]);
  const name = decodeHashComponent(raw);
  return r.channelIdByName(name) ?? name;
}

function userOperand(raw: string, r: Resolver): number | string {
  const m = /^(\d+)(?:-|$)/.exec(raw);
  if (m) return Number(m[1]);
  const email = decodeHashComponent(raw);
  return r.userIdByEmail(email) ?? email;
}

// `7,9-group`, `7-Mia`, or e-mails (older links).
function dmOperand(raw: string, r: Resolver): number[] | string {
  const m = /^([\d,]+)(?:-|$)/.exec(raw);
  if (m) return m[1].split(',').filter(Boolean).map(Number);
  const emails = decodeHashComponent(raw).split(',');
  const ids = emails.map((e) => r.userIdByEmail(e.trim()));
  return ids.every((id) => id !== undefined) ? (ids as number[]) : decodeHashComponent(raw);
}

export function parseHash(hash: string, resolver: Resolver = NO_RESOLVER): Route {
  const h = hash.replace(/^#/, '');
  if (h === '' || h === 'feed' || h === 'all_messages' || h === 'combined-feed') return FEED;
  if (h === 'inbox' || h === 'recent' || h === 'drafts' || h === 'scheduled') return { view: h };
  if (h === 'recent_topics') return { view: 'recent' };
  const parts = h.split('/');
  if (parts[0] !== 'narrow') return FEED;
  const terms: Term[] = [];
  let near: number | undefined;
  for (let i = 1; i + 1 < parts.length; i += 2) {
    let op = decodeHashComponent(parts[i]);
    const negated = op.startsWith('-');
    if (negated) op = op.slice(1);
    const raw = parts[i + 1];
    let operand: Term['operand'];
    switch (op) {
      case 'stream':
      case 'channel':
        operand = channelOperand(raw, resolver);
        op = 'channel';
        break;
      case 'sender':
      case 'dm-including':
      case 'group-pm-with':
        operand = userOperand(raw, resolver);
        break;
      case 'dm':
      case 'pm-with':
        operand = dmOperand(raw, resolver);
        op = 'dm';
        break;
      case 'near':
      case 'with':
      case 'id':
        operand = Number(raw);
        if (!Number.isInteger(operand)) continue;
        if (op !== 'id') {
          near = operand;
          continue;
        }
        break;
      default:
        operand = decodeHashComponent(raw);
    }
    terms.push(negated ? { operator: op, operand, negated: true } : { operator: op, operand });
  }
  return { view: 'messages', terms: normalizeTerms(terms), near };
}

export interface Names {
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
}

const slug = (name: string) => encodeHashComponent(name.replace(/ /g, '-'));

export function formatTerms(terms: Term[], names: Names): string {
  const out: string[] = [];
  for (const t of normalizeTerms(terms)) {
    const op = `${t.negated ? '-' : ''}${t.operator}`;
    let operand: string;
    if (t.operator === 'channel' && typeof t.operand === 'number') operand = `${t.operand}-${slug(names.channelName(t.operand) ?? 'unknown')}`;
    else if ((t.operator === 'sender' || t.operator === 'dm-including') && typeof t.operand === 'number') operand = `${t.operand}-${slug(names.userName(t.operand) ?? 'user')}`;
    else if (t.operator === 'dm' && Array.isArray(t.operand)) {
      const ids = t.operand;
      operand = `${ids.join(',')}-${ids.length === 1 ? slug(names.userName(ids[0]) ?? 'user') : 'group'}`;
    } else operand = encodeHashComponent(String(t.operand));
    out.push(op, operand);
  }
  return out.join('/');
}

export function formatHash(route: Route, names: Names): string {
  if (route.view !== 'messages') return `#${route.view}`;
  if (route.terms.length === 0 && route.near === undefined) return '#feed';
  const terms = formatTerms(route.terms, names);
  return `#narrow${terms ? `/${terms}` : ''}${route.near !== undefined ? `/near/${route.near}` : ''}`;
}
