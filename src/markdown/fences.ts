// Line preprocessing, before blocks are parsed: a list hanging off a paragraph gets the blank line Markdown
// needs; whitespace is normalized; fenced blocks (```` ``` ````/`~~~`) are taken out. Code and math fences
// become stashed HTML; quote and spoiler fences become Markdown again (quote lines, spoiler markup around
// their content), so that fences nest inside them as on the reference server.
import { formatCode } from './highlight.js';
import { renderTex, texError } from './tex.js';

export class Stash {
  blocks: string[] = [];
  store(html: string): string {
    this.blocks.push(html);
    return `\u0002wzxhzdk:${this.blocks.length - 1}\u0003`;
  }
}

export const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

const LI_RE = /^[ ]*([*+-]|\d\.)[ ]+(.*)/;

// Quote, spoiler and math fences nest; deeper than this, a fence line is text.
const MAX_FENCE_DEPTH = 32;

// A list item right after a line of text (or after an item of the other kind) starts a list.
export function hangingLists(lines: string[]): string[] {
  const copy = lines.slice();
  let inserts = 0;
  const open: { fence: string; isCode: boolean }[] = [];
  let inCode = false;
  for (let i = 0; i < lines.length - 1; i++) {
    const m = FENCE_RE.exec(lines[i]);
    if (m) {
      const lang = m[2];
      const closes = !lang && open.length > 0 && open[open.length - 1].fence === m[1];
      if (closes) open.pop();
      else open.push({ fence: m[1], isCode: lang !== 'quote' && lang !== 'quoted' });
      inCode = open.some((f) => f.isCode);
    }
    const li1 = LI_RE.exec(lines[i]);
    const li2 = LI_RE.exec(lines[i + 1]);
    if (!inCode && lines[i] && ((li2 && !li1) || (li1 && li2 && (li1[1].length === 1) !== (li2[1].length === 1)))) {
      copy.splice(i + inserts + 1, 0, '');
      inserts++;
    }
  }
  return copy;
}

// Tabs expand to the next multiple of four columns, as Python's expandtabs does.
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(4 - (out.length % 4)) : ch;
  return out;
}

export function normalizeWhitespace(lines: string[]): string[] {
  const source = `${lines.join('\n').replace(/[\u0002\u0003]/g, '').replace(/\r\n?/g, '\n')}\n\n`;
  return source.split('\n').map(expandTabs).join('\n').replace(/(?<=\n) +\n/g, '\n').split('\n');
}

interface Handler {
  fence: string | null;
  lines: string[];
  output: string[];
  kind: 'outer' | 'code' | 'quote' | 'spoiler' | 'math';
  lang?: string | null;
  header?: string | null;
}

const SPOILER_OPEN = '<div class="spoiler-block"><div class="spoiler-header">';
const SPOILER_MIDDLE = '</div><div class="spoiler-content" aria-hidden="true">';
const SPOILER_CLOSE = '</div></div>';

export function fencedBlocks(lines: string[], stash: Stash, defaultLanguage: string | null): string[] {
  const output: string[] = [];
  const handlers: Handler[] = [{ fence: null, lines: [], output, kind: 'outer' }];

  const checkForFence = (out: string[], line: string, withDefault: boolean) => {
    const m = handlers.length <= MAX_FENCE_DEPTH ? FENCE_RE.exec(line) : null;
    if (!m) {
      out.push(line);
      return;
    }
    let lang: string | null = m[2] ?? null;
    if (!lang && withDefault && defaultLanguage) lang = defaultLanguage;
    lang = lang === null ? null : lang.toLowerCase();
    const base = { fence: m[1], lines: [], output: out };
    if (lang === 'quote' || lang === 'quoted') handlers.push({ ...base, kind: 'quote' });
    else if (lang === 'math') handlers.push({ ...base, kind: 'math' });
    else if (lang === 'spoiler') handlers.push({ ...base, kind: 'spoiler', header: m[3] ?? null });
    else handlers.push({ ...base, kind: 'code', lang });
  };

  const format = (h: Handler, text: string): string => {
    switch (h.kind) {
      case 'code':
        return stash.store(formatCode(h.lang ?? null, text));
      case 'math':
        return stash.store(text.split('\n\n').map((p) => renderTex(p, false) ?? texError(p)).join('\n\n'));
      case 'quote':
        return text.split('\n').map((l) => `> ${l}`).join('\n');
      default: {
        const parts = [stash.store(SPOILER_OPEN)];
        if (h.header !== null && h.header !== undefined) parts.push(h.header);
        parts.push(stash.store(SPOILER_MIDDLE), text, stash.store(SPOILER_CLOSE));
        return parts.join('\n\n');
      }
    }
  };

  const done = () => {
    const h = handlers[handlers.length - 1];
    if (h.lines.length) h.output.push('', ...format(h, h.lines.join('\n')).split('\n'), '');
    handlers.pop();
  };

  for (const line of lines) {
    const h = handlers[handlers.length - 1];
    if (h.kind === 'outer') checkForFence(output, line, true);
    else if (line.trimEnd() === h.fence) done();
    else if (h.kind === 'quote') checkForFence(h.lines, line, true);
    else if (h.kind === 'spoiler') checkForFence(h.lines, line, false);
    else h.lines.push(line.trimEnd());
  }
  while (handlers.length) done();
  if (output.length > 2 && output[output.length - 2] !== '') output.push('');
  return output;
}
