// The reference's search syntax: `operator:operand` terms (channel:design topic:emoji+picker sender:ada@x.org
// dm:ada@x.org,bob@x.org is:starred has:link near:123 -topic:noise), a `+` standing for a space in an operand,
// and the remaining words searched as text.
import type { Term } from '../data/narrow';

export interface SearchNames {
  channelIdByName(name: string): number | undefined;
  channelName(id: number): string | undefined;
  userId(emailOrName: string): number | undefined;
  userEmail(id: number): string | undefined;
  me: number;
}

const OPERATORS = new Set(['channel', 'stream', 'topic', 'subject', 'sender', 'from', 'dm', 'pm-with', 'dm-including', 'group-pm-with', 'is', 'has', 'near', 'id', 'channels', 'streams', 'search']);

const decodeOperand = (s: string) => s.replace(/\+/g, ' ');
const encodeOperand = (s: string) => s.replace(/ /g, '+');

export function parseSearch(text: string, names: SearchNames): Term[] {
  const terms: Term[] = [];
  const words: string[] = [];
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(-?)([a-z-]+):(.*)$/i.exec(token);
    const op = m?.[2].toLowerCase();
    if (!m || !op || !OPERATORS.has(op) || (m[3] === '' && op !== 'topic')) {
      words.push(token);
      continue;
    }
    const negated = m[1] === '-' ? { negated: true as const } : {};
    const raw = decodeOperand(m[3]);
    switch (op) {
      case 'channel':
      case 'stream': {
        const id = /^\d+$/.test(raw) ? Number(raw) : names.channelIdByName(raw);
        terms.push({ operator: 'channel', operand: id ?? raw, ...negated });
        break;
      }
      case 'topic':
      case 'subject':
        terms.push({ operator: 'topic', operand: raw, ...negated });
        break;
      case 'sender':
      case 'from': {
        const id = raw === 'me' ? names.me : names.userId(raw);
        terms.push({ operator: 'sender', operand: id ?? raw, ...negated });
        break;
      }
      case 'dm':
      case 'pm-with': {
        const ids = raw.split(',').map((x) => (x === 'me' ? names.me : names.userId(x.trim())));
        terms.push({ operator: 'dm', operand: ids.every((x) => x !== undefined) ? (ids as number[]) : raw, ...negated });
        break;
      }
      case 'dm-including':
      case 'group-pm-with':
        terms.push({ operator: 'dm-including', operand: names.userId(raw) ?? raw, ...negated });
        break;
      case 'near':
      case 'id':
        terms.push({ operator: op, operand: Number(raw) || raw });
        break;
      case 'streams':
      case 'channels':
        terms.push({ operator: 'channels', operand: raw });
        break;
      case 'search':
        words.push(raw);
        break;
      default:
        terms.push({ operator: op, operand: raw.toLowerCase(), ...negated });
    }
  }
  if (words.length) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

export function searchText(terms: Term[], names: SearchNames): string {
  return terms
    .map((t) => {
      const neg = t.negated ? '-' : '';
      let operand: string;
      if (t.operator === 'search') return String(t.operand);
      if (t.operator === 'channel' && typeof t.operand === 'number') operand = names.channelName(t.operand) ?? String(t.operand);
      else if ((t.operator === 'sender' || t.operator === 'dm-including') && typeof t.operand === 'number') operand = t.operand === names.me ? 'me' : names.userEmail(t.operand) ?? String(t.operand);
      else if (t.operator === 'dm' && Array.isArray(t.operand)) operand = t.operand.map((id) => names.userEmail(id) ?? String(id)).join(',');
      else operand = String(t.operand);
      return `${neg}${t.operator}:${encodeOperand(operand)}`;
    })
    .join(' ');
}
