// Autocomplete in the compose box: which token the caret is in (@-mention, #-channel, :emoji:), the candidates
// that match it, and the text once one is chosen — in the reference's syntax (@**Name|id**, #**channel**,
// #**channel>topic**, :name:).

export type TokenKind = 'mention' | 'silent-mention' | 'channel' | 'topic' | 'emoji';

export interface Token {
  kind: TokenKind;
  query: string;
  start: number; // where the token (its sigil included) starts in the text
  end: number; // the caret
  channel?: string; // for a topic: the channel named before `>`
}

// The token the caret ends, if any: a sigil at the start or after a space or an opening bracket, then no space
// (mentions and channels may have spaces: names do).
export function tokenAt(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  // Names have spaces, but a query of more than three words, or with punctuation, is past the mention.
  let m = /(?:^|[\s(])(@_?)(\*\*)?([^@*\n#,:;!?()]{0,40})$/.exec(before);
  if (m && !/\s{2}/.test(m[3]) && m[3].split(' ').length <= 3) {
    const start = caret - m[3].length - (m[2] ? 2 : 0) - m[1].length;
    return { kind: m[1] === '@_' ? 'silent-mention' : 'mention', query: m[3], start, end: caret };
  }
  m = /(?:^|[\s(])#\*\*([^*\n>]{1,60})>([^*\n]{0,60})$/.exec(before);
  if (m) return { kind: 'topic', query: m[2], channel: m[1], start: caret - m[0].replace(/^[\s(]/, '').length, end: caret };
  m = /(?:^|[\s(])#(\*\*)?([^#*\n@,:;!?()]{0,60})$/.exec(before);
  if (m && !/\s{2}/.test(m[2]) && m[2].split(' ').length <= 3) return { kind: 'channel', query: m[2], start: caret - m[2].length - (m[1] ? 2 : 0) - 1, end: caret };
  m = /(?:^|[\s(]):([a-z0-9_+-]{1,30})$/i.exec(before);
  if (m) return { kind: 'emoji', query: m[1], start: caret - m[1].length - 1, end: caret };
  return null;
}

export interface Candidate {
  key: string;
  label: string; // shown
  detail?: string; // shown dimmed (an e-mail, a description)
  insert: string; // what replaces the token
  glyph?: string; // an emoji, shown before the label
  image?: string; // a custom emoji's image
}

// Prefix matches of any word first, then anywhere; at most `limit`.
export function rank<T>(items: T[], query: string, text: (item: T) => string, limit = 8): T[] {
  const q = query.toLowerCase().trim();
  if (!q) return items.slice(0, limit);
  const starts: T[] = [];
  const words: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const t = text(item).toLowerCase();
    if (t.startsWith(q)) starts.push(item);
    else if (t.split(/[\s_\-.]+/).some((w) => w.startsWith(q))) words.push(item);
    else if (t.includes(q)) contains.push(item);
    if (starts.length >= limit) break;
  }
  return [...starts, ...words, ...contains].slice(0, limit);
}

export const mentionSyntax = (name: string, id: number, silent: boolean) => `@${silent ? '_' : ''}**${name}|${id}** `;
export const channelSyntax = (name: string) => `#**${name}** `;
export const topicSyntax = (channel: string, topic: string) => `#**${channel}>${topic}** `;

// The text with the token replaced by the chosen candidate, and where the caret goes.
export function complete(text: string, token: Token, insert: string): { text: string; caret: number } {
  const next = text.slice(0, token.start) + insert + text.slice(token.end);
  return { text: next, caret: token.start + insert.length };
}
