// The emoji the app offers: the server's Unicode emoji names (loaded once, when first needed, from register's
// server_emoji_data_url) and the organization's custom emoji, with the ones this person used recently.
import type { RealmEmoji } from '../api/types';
import type { EmojiChoice } from '../data/actions';
import { codeToChars } from './chars';

export interface EmojiEntry extends EmojiChoice {
  names: string[]; // every name it answers to, the canonical first
  chars?: string; // Unicode emoji
  image?: string; // custom emoji
}

let unicode: Promise<EmojiEntry[]> | null = null;

export function loadUnicodeEmoji(url: string): Promise<EmojiEntry[]> {
  unicode ??= fetch(url, { credentials: 'same-origin' })
    .then((r) => r.json() as Promise<{ code_to_names: Record<string, string[]> }>)
    .then((d) => Object.entries(d.code_to_names).map(([code, names]) => ({ name: names[0], names, code, type: 'unicode_emoji' as const, chars: codeToChars(code) })))
    .catch((err) => {
      unicode = null;
      throw err;
    });
  return unicode;
}

export function customEmoji(realmEmoji: Map<string, RealmEmoji>): EmojiEntry[] {
  return [...realmEmoji.values()].filter((e) => !e.deactivated).map((e) => ({ name: e.name, names: [e.name], code: e.id, type: 'realm_emoji' as const, image: e.source_url }));
}

const RECENT_KEY = 'parlance.recentEmoji';

export function recentEmoji(): EmojiChoice[] {
  try {
    return JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as EmojiChoice[];
  } catch {
    return [];
  }
}

export function noteUsed(e: EmojiChoice): void {
  const list = [e, ...recentEmoji().filter((x) => !(x.code === e.code && x.type === e.type))].slice(0, 24);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

export const DEFAULT_RECENT: EmojiChoice[] = [
  { name: '+1', code: '1f44d', type: 'unicode_emoji' },
  { name: 'tada', code: '1f389', type: 'unicode_emoji' },
  { name: 'smile', code: '1f604', type: 'unicode_emoji' },
  { name: 'heart', code: '2764', type: 'unicode_emoji' },
  { name: 'working_on_it', code: '1f6e0', type: 'unicode_emoji' },
  { name: 'octopus', code: '1f419', type: 'unicode_emoji' },
];

