// The Unicode emoji set and its names: the reference server's own table (its emoji_names.py name map, as
// zulip-terminal ships it: canonical name, code, aliases; Apache-2.0), so that `:name:` and emoji typed as
// characters resolve to the same names and code points as there. Codes are lower-case hex code points joined
// by dashes, every U+FE0F presentation selector dropped ("2764", not "2764-fe0f").
import table from './reference-emoji.json' with { type: 'json' };

export interface UnicodeEmojiTables {
  nameToCode: Map<string, string>;
  codeToNames: Map<string, string[]>; // canonical name first
}

// Names clients send that the table (as of its copy) lacks; accepted as aliases. zulip-flutter's quick
// reactions use `slight_smile`, the newer reference name of 1f642.
const EXTRA_ALIASES: Record<string, string[]> = { '1f642': ['slight_smile'] };

export const codeToChars = (code: string) => String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));

function build(): UnicodeEmojiTables {
  const nameToCode = new Map<string, string>();
  const codeToNames = new Map<string, string[]>();
  for (const [canonical, [code, ...aliases]] of Object.entries(table as Record<string, string[]>)) {
    const names = [canonical, ...aliases, ...(EXTRA_ALIASES[code] ?? [])];
    codeToNames.set(code, names);
    for (const name of names) nameToCode.set(name, code);
  }
  return { nameToCode, codeToNames };
}

let tables: UnicodeEmojiTables | undefined;

export function unicodeEmoji(): UnicodeEmojiTables {
  return (tables ??= build());
}
