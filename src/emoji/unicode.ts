// The Unicode emoji set and its names, built once from the `emojibase-data` package (English CLDR labels and the
// shortcode sets clients know). Codes follow the reference server: lower-case hex code points joined by dashes,
// every U+FE0F presentation selector dropped ("2764", not "2764-fe0f"), skin-tone variants left out.
import { createRequire } from 'node:module';

interface Entry { hexcode: string; group?: number }
type Shortcodes = Record<string, string | string[]>;

export interface UnicodeEmojiTables {
  nameToCode: Map<string, string>;
  codeToNames: Map<string, string[]>; // canonical name first
  // The emoji's text (presentation selectors dropped) → code, for spotting emoji typed as characters.
  charsToCode: Map<string, string>;
  maxChars: number; // longest sequence, in code points
}

// Names the reference server uses that none of the shortcode sets has, and which clients send as they are
// (zulip-flutter's quick reactions use exactly these); each becomes its emoji's canonical name.
const REFERENCE_NAMES: Record<string, string> = {
  '1f642': 'slight_smile',
  '1f6e0': 'working_on_it',
};

const SKIN_TONES = new Set(['1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff']);
// The names the message syntax `:name:` can spell.
const VALID_NAME = /^[\p{L}\p{N}_+-]+$/u;

const toCode = (hexcode: string) => hexcode.toLowerCase().split('-').filter((h) => h !== 'fe0f').join('-');
export const codeToChars = (code: string) => String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));

// Shortcode sets spell words with dashes ("woman-running", "flag-us"); the reference server's names use
// underscores. "-1" (thumbs down) is a name in its own right.
function normalize(name: string): string {
  const lower = name.toLowerCase();
  return lower === '-1' ? lower : lower.replace(/-/g, '_');
}

function build(): UnicodeEmojiTables {
  const require = createRequire(import.meta.url);
  const entries = require('emojibase-data/en/compact.json') as Entry[];
  // In order of preference: the first name found becomes the canonical one. Flags are named by country
  // ("flag_united_states"), as the reference server names them, rather than by code ("us").
  const [iamcal, joypixels, cldr, github] = ['iamcal', 'joypixels', 'cldr', 'github'].map((s) => require(`emojibase-data/en/shortcodes/${s}.json`) as Shortcodes);
  const FLAGS = 9;
  const candidates = new Map<string, string[]>();
  for (const e of entries) {
    if (e.group === undefined) continue; // lone regional indicators
    const code = toCode(e.hexcode);
    if (SKIN_TONES.has(code)) continue;
    const names: string[] = REFERENCE_NAMES[code] ? [REFERENCE_NAMES[code]] : [];
    for (const set of e.group === FLAGS ? [cldr, iamcal, joypixels, github] : [iamcal, joypixels, cldr, github]) {
      const value = set[e.hexcode];
      for (const n of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
        const name = normalize(n);
        if (VALID_NAME.test(name) && !names.includes(name)) names.push(name);
      }
    }
    if (names.length) candidates.set(code, names);
  }
  // Canonical names are claimed before any alias, so an alias never takes another emoji's canonical name.
  const nameToCode = new Map<string, string>();
  const codeToNames = new Map<string, string[]>();
  for (const [code, names] of candidates) {
    const canonical = names.find((n) => !nameToCode.has(n));
    if (!canonical) continue;
    nameToCode.set(canonical, code);
    codeToNames.set(code, [canonical]);
  }
  for (const [code, names] of candidates) {
    const list = codeToNames.get(code);
    if (!list) continue;
    for (const n of names) {
      if (nameToCode.has(n)) continue;
      nameToCode.set(n, code);
      list.push(n);
    }
  }
  const charsToCode = new Map<string, string>();
  let maxChars = 1;
  for (const code of codeToNames.keys()) {
    charsToCode.set(codeToChars(code), code);
    maxChars = Math.max(maxChars, code.split('-').length);
  }
  return { nameToCode, codeToNames, charsToCode, maxChars };
}

let tables: UnicodeEmojiTables | undefined;

export function unicodeEmoji(): UnicodeEmojiTables {
  return (tables ??= build());
}
