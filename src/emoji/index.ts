// Emoji as reactions, statuses and messages name them: a (name, code, type) triple. Unicode emoji are coded by
// code points, custom emoji by their id, the one extra emoji by its name.
import { ApiError } from '../lib/errors.js';
import { unicodeEmoji } from './unicode.js';

export { codeToChars, unicodeEmoji } from './unicode.js';

export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

// The extra emoji is drawn by clients from their own image; only its name is known here.
export const EXTRA_EMOJI = 'zulip';
export const EXTRA_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

// The contract's neutral word for the extra-emoji namespace is accepted as well as the established one.
export function reactionType(raw: string): ReactionType | null {
  if (raw === 'service_extra_emoji') return 'zulip_extra_emoji';
  return (REACTION_TYPES as readonly string[]).includes(raw) ? (raw as ReactionType) : null;
}

export interface CustomEmoji {
  id: number;
  name: string;
  deactivated: boolean;
}

export const unicodeCodeForName = (name: string) => unicodeEmoji().nameToCode.get(name);
export const canonicalName = (code: string) => unicodeEmoji().codeToNames.get(code)?.[0];

// Resolution order of the reference server: an active custom emoji shadows the extra emoji and Unicode names.
export function resolveEmoji(custom: CustomEmoji[], name: string): { code: string; type: ReactionType } {
  const own = custom.find((e) => e.name === name && !e.deactivated);
  if (own) return { code: String(own.id), type: 'realm_emoji' };
  if (name === EXTRA_EMOJI) return { code: name, type: 'zulip_extra_emoji' };
  const code = unicodeCodeForName(name);
  if (code) return { code, type: 'unicode_emoji' };
  throw new ApiError(`Emoji '${name}' does not exist`);
}

// Reactions spell these two without a final period (§7); user status spells them with one.
export interface EmojiMessages { code: string; name: string }
export const REACTION_EMOJI_MESSAGES: EmojiMessages = { code: 'Invalid emoji code', name: 'Invalid emoji name' };
export const STATUS_EMOJI_MESSAGES: EmojiMessages = { code: 'Invalid emoji code.', name: 'Invalid emoji name.' };

// Whether a triple names an emoji that may be newly used: the code exists in its namespace and the name is one
// of that emoji's names; a deactivated custom emoji may no longer be picked.
export function checkEmoji(custom: CustomEmoji[], name: string, code: string, type: ReactionType, messages = REACTION_EMOJI_MESSAGES): void {
  switch (type) {
    case 'realm_emoji': {
      const own = /^\d+$/.test(code) ? custom.find((e) => e.id === Number(code)) : undefined;
      if (!own) throw new ApiError('Invalid custom emoji.');
      if (own.name !== name) throw new ApiError('Invalid custom emoji name.');
      if (own.deactivated) throw new ApiError('This custom emoji has been deactivated.');
      return;
    }
    case 'zulip_extra_emoji':
      if (code !== EXTRA_EMOJI) throw new ApiError(messages.code);
      if (name !== code) throw new ApiError(messages.name);
      return;
    case 'unicode_emoji':
      if (!unicodeEmoji().codeToNames.has(code)) throw new ApiError(messages.code);
      if (unicodeCodeForName(name) !== code) throw new ApiError(messages.name);
  }
}

// Custom emoji names: spaces read as underscores and capitals as small letters, as the reference documents.
export function checkCustomEmojiName(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/ /g, '_');
  if (!name) throw new ApiError('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw new ApiError('Emoji names must end with either a letter or digit.');
    return name;
  }
  throw new ApiError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

// GET /static/generated/emoji/emoji_api.json (register's server_emoji_data_url): every code with its names.
let apiData: string | undefined;
export function emojiApiJson(): string {
  return (apiData ??= JSON.stringify({ code_to_names: Object.fromEntries(unicodeEmoji().codeToNames) }));
}
