// Emoji in messages, shaped as the reference renders them: `:name:` (custom emoji first, then the extra emoji,
// then Unicode names), emoticons like `:)` for users who asked for them, and emoji typed as characters, which
// become the same markup under their canonical name.
import { canonicalName, EXTRA_EMOJI, EXTRA_EMOJI_URL, unicodeCodeForName } from '../emoji/index.js';
import { El } from './tree.js';

export { EXTRA_EMOJI, EXTRA_EMOJI_URL, unicodeCodeForName };

export interface CustomEmojiTarget { id: number; sourceUrl: string }

const title = (syntax: string) => syntax.slice(1, -1).replace(/_/g, ' ');

export function emojiEl(code: string, syntax: string): El {
  const t = title(syntax);
  return new El('span', { class: `emoji emoji-${code}`, title: t, role: 'img', 'aria-label': t }).setText(syntax, true);
}

export const customEmojiEl = (src: string, syntax: string) => new El('img', { src, class: 'emoji', alt: syntax, title: title(syntax) });

const EMOTICONS: Record<string, string> = {
  ':)': 'smile', '(:': 'smile', ':(': 'frown', '<3': 'heart', ':|': 'neutral', ':/': 'confused', ';)': 'wink', ':D': 'grinning',
  ':o': 'open_mouth', ':O': 'open_mouth', ':p': 'stuck_out_tongue', ':P': 'stuck_out_tongue',
};

export function emoticonEmoji(emoticon: string): El {
  const name = EMOTICONS[emoticon];
  return emojiEl(unicodeCodeForName(name)!, `:${name}:`);
}

// Characters drawn as text by default (arrows, digits, keycap bases) stay text when alone.
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

export function emojiForChars(chars: string): El | null {
  if (TEXT_PRESENTATION.test(chars)) return null;
  const code = [...chars.replace(/\uFE0F/g, '')].map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0')).join('-');
  const name = canonicalName(code);
  return name ? emojiEl(code, `:${name}:`) : null;
}
