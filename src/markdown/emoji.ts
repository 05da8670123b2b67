// Emoji in message Markdown, shaped as the reference server renders them: `:name:` (custom emoji first, then
// the extra emoji, then Unicode names) and emoji typed as characters, which become the same markup under their
// canonical name.
import { canonicalName, EXTRA_EMOJI, EXTRA_EMOJI_URL, unicodeCodeForName, unicodeEmoji } from '../emoji/index.js';

export interface CustomEmojiTarget { id: number; sourceUrl: string }

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const title = (name: string) => escape(name.replace(/_/g, ' '));

export const EMOJI_SYNTAX = /:([\p{L}\p{N}_+-]{1,100}):/uy;

function unicodeSpan(code: string, name: string): string {
  return `<span aria-label="${title(name)}" class="emoji emoji-${code}" role="img" title="${title(name)}">:${escape(name)}:</span>`;
}

const image = (src: string, name: string) => `<img alt=":${escape(name)}:" class="emoji" src="${escape(src)}" title="${title(name)}">`;

// The markup for `:name:`, or null when no emoji has that name (the text then stays as written).
export function emojiHtml(name: string, custom: Map<string, CustomEmojiTarget> | undefined): string | null {
  const own = custom?.get(name);
  if (own) return image(own.sourceUrl, name);
  if (name === EXTRA_EMOJI) return image(EXTRA_EMOJI_URL, name);
  const code = unicodeCodeForName(name);
  return code ? unicodeSpan(code, name) : null;
}

// Where an emoji may start: a pictograph, a regional indicator (flags) or a keycap base.
const START = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9](?=\uFE0F?\u20E3)/gu;
const PRESENTED = /^\p{Emoji_Presentation}/u;

export type EmojiPiece = string | { html: string };

// Splits text around emoji characters. The longest known sequence wins; characters drawn as text by default
// (©, ↔) count only when asked to look like emoji (U+FE0F) or when part of a longer sequence.
export function unicodeEmojiPieces(text: string): EmojiPiece[] {
  const { charsToCode, maxChars } = unicodeEmoji();
  const out: EmojiPiece[] = [];
  let at = 0;
  START.lastIndex = 0;
  for (let m = START.exec(text); m; m = START.exec(text)) {
    const begin = m.index;
    // Up to maxChars code points from here, skipping presentation selectors; `ends[k]` is where k+1 end.
    const points: string[] = [];
    const ends: number[] = [];
    let i = begin;
    let selected = false;
    while (i < text.length && points.length < maxChars) {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      i += ch.length;
      if (ch === '\uFE0F') {
        if (points.length === 1) selected = true;
        if (ends.length) ends[ends.length - 1] = i;
        continue;
      }
      points.push(ch);
      ends.push(i);
    }
    let found = 0;
    let code: string | undefined;
    for (let k = points.length; k > 0 && !code; k--) {
      code = charsToCode.get(points.slice(0, k).join(''));
      if (code) found = k;
    }
    if (!code || (found === 1 && !selected && !PRESENTED.test(points[0]))) continue;
    if (begin > at) out.push(text.slice(at, begin));
    out.push({ html: unicodeSpan(code, canonicalName(code)!) });
    at = ends[found - 1];
    START.lastIndex = at;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
