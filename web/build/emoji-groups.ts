// A Vite plugin: `virtual:emoji-groups`, the emoji picker's categories and order (from emojibase-data, a
// build-time source: the server's own table, the reference's, has names and codes but no categories), as codes
// in the server's form. Names come from the server at run time (server_emoji_data_url), so the picker and the
// server agree on them; a code the server does not know is left out of the picker.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const ID = 'virtual:emoji-groups';
const RESOLVED = `\0${ID}`;
const LABELS = ['Smileys & emotion', 'People & body', 'Components', 'Animals & nature', 'Food & drink', 'Travel & places', 'Activities', 'Objects', 'Symbols', 'Flags'];

const toCode = (hexcode: string) => hexcode.toLowerCase().split('-').filter((h) => h !== 'fe0f').join('-');

export function emojiGroups(): Plugin {
  return {
    name: 'parlance-emoji-groups',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      const require = createRequire(import.meta.url);
      const file = require.resolve('emojibase-data/en/compact.json');
      const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as { hexcode: string; group?: number; order?: number }[];
      const groups: string[][] = LABELS.map(() => []);
      for (const e of entries.filter((x) => x.group !== undefined && x.group !== 2).sort((a, b) => (a.order ?? 0) - (b.order ?? 0))) groups[e.group!].push(toCode(e.hexcode));
      const out = LABELS.map((label, i) => ({ label, codes: groups[i].join(' ') })).filter((g) => g.codes);
      return `export default ${JSON.stringify(out)};`;
    },
  };
}
