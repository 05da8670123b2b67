// Code blocks, shaped as the reference shapes them (Pygments' HTML): `div.codehilite` holding
// `<pre><span></span><code>`, tokens in spans with Pygments' short class names, so that the stylesheets clients
// already have apply. Languages are named as Pygments names them (its alias table, pygments-languages.json), so
// `data-code-language` is canonical (`py2` → "Python 2.x"). Tokens come from highlight.js, whose scopes are
// mapped onto Pygments' classes; text it leaves unscoped is split into names, operators and punctuation as
// Pygments' lexers split it. Languages highlight.js does not know stay plain, like unknown ones.
import { createRequire } from 'node:module';
import type { HLJSApi } from 'highlight.js';
import pygmentsNames from './pygments-languages.json' with { type: 'json' };

const NAMES = pygmentsNames as Record<string, string>;

// highlight.js is loaded at the first code block: its 190 grammars take about 16 MB that a server whose messages
// have no code need not hold (B8, the idle server).
const require = createRequire(import.meta.url);
let loaded: HLJSApi | undefined;
const hljs = (): HLJSApi => (loaded ??= require('highlight.js') as HLJSApi);

// Pygments' language name for what a fence says, or null when it knows no such language.
export const pygmentsName = (lang: string): string | null => (Object.hasOwn(NAMES, lang) ? NAMES[lang] : null);

// Pygments names whose highlight.js grammar has another name.
const HLJS_FOR: Record<string, string> = {
  'Python 2.x': 'python', 'Python console session': 'python-repl', TeX: 'latex', 'Bash Session': 'shell', 'Text only': '',
  'Transact-SQL': 'sql', 'PostgreSQL SQL dialect': 'pgsql', 'MySQL': 'sql', 'Objective-C': 'objectivec', 'Emacs Lisp': 'lisp',
  // Aliases highlight.js gives to other languages.
  'ASCII armored': '', K: '', MOOCode: '',
};

function hljsLanguage(lang: string, name: string): string | null {
  const explicit = HLJS_FOR[name];
  if (explicit !== undefined) return explicit || null;
  for (const candidate of [name.toLowerCase(), lang]) if (hljs().getLanguage(candidate)) return candidate;
  return null;
}

// highlight.js scope (its first part, or the whole) → Pygments class.
const SCOPES: Record<string, string> = {
  keyword: 'k', built_in: 'nb', type: 'kt', literal: 'kc', 'title.function': 'nf', 'title.class': 'nc', title: 'nf',
  'title.class.inherited': 'n', 'variable.language': 'bp', variable: 'nv', 'variable.constant': 'no', property: 'py',
  attr: 'na', attribute: 'na', tag: 'nt', name: 'nt', 'selector-tag': 'nt', 'selector-class': 'nc', 'selector-id': 'nn',
  'selector-attr': 'na', 'selector-pseudo': 'nd', operator: 'o', punctuation: 'p', regexp: 'sr', symbol: 'ss',
  subst: 'si', 'char.escape': 'se', meta: 'cp', 'meta.keyword': 'cp', 'meta.string': 'cpf', doctag: 'nd', section: 'gh',
  bullet: 'k', emphasis: 'ge', strong: 'gs', deletion: 'gd', addition: 'gi', link: 'nl', quote: 'c1', code: 'sb',
  'template-variable': 'x', 'template-tag': 'x', formula: 'sr', number: 'mi', string: 's', comment: 'c',
};

// Pygments splits these words out of what highlight.js leaves as plain text or keywords.
const PYTHON_WORDS = { self: 'bp', cls: 'bp', and: 'ow', or: 'ow', not: 'ow', in: 'ow', is: 'ow', import: 'kn', from: 'kn' };
const WORDS: Record<string, Record<string, string>> = { Python: PYTHON_WORDS, 'Python 2.x': PYTHON_WORDS };
// Languages whose plain text Pygments leaves plain (prose-like), with the characters it does mark.
const PROSE: Record<string, Record<string, string>> = { TeX: { '{': 'nb', '}': 'nb' }, Markdown: {}, 'Text only': {} };

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

type Token = [cls: string, text: string];

function numberClass(text: string): string {
  if (/^0[xX]/.test(text)) return 'mh';
  if (/^0[oO]/.test(text)) return 'mo';
  if (/^0[bB]/.test(text)) return 'mb';
  return /[.eE]/.test(text) && !/^0[xX]/.test(text) ? 'mf' : 'mi';
}

function stringClass(text: string): string {
  const body = text.replace(/^[a-zA-Z]{1,2}(?=["'`])/, '');
  if (body.startsWith('"""') || body.startsWith("'''")) return 'sd';
  if (body.startsWith('"')) return 's2';
  if (body.startsWith("'")) return 's1';
  if (body.startsWith('`')) return 'sb';
  return 's';
}

function commentClass(text: string, first: boolean): string {
  if (first && text.startsWith('#!')) return 'ch';
  return text.includes('\n') ? 'cm' : 'c1';
}

const PLAIN_RE = /(\s+)|([\p{L}_][\p{L}\p{N}_]*)|(\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)|([-+*/%=<>!&|^~?@]+)|([()[\]{},;:.]+)|(.)/gsu;

function plainTokens(text: string, lang: string, out: Token[]): void {
  const prose = PROSE[lang];
  if (prose) {
    let run = '';
    for (const ch of text) {
      if (prose[ch]) {
        if (run) out.push(['', run]);
        run = '';
        out.push([prose[ch], ch]);
      } else run += ch;
    }
    if (run) out.push(['', run]);
    return;
  }
  const words = WORDS[lang] ?? {};
  for (const m of text.matchAll(PLAIN_RE)) {
    if (m[1] || m[6]) out.push(['', m[0]]);
    else if (m[2]) out.push([words[m[2]] ?? 'n', m[2]]);
    else if (m[3]) out.push([numberClass(m[3]), m[3]]);
    else if (m[4]) out.push(['o', m[4]]);
    else out.push(['p', m[5]]);
  }
}

interface HljsNode { scope?: string; children: (string | HljsNode)[] }

function walk(node: HljsNode, lang: string, out: Token[], inherited: string | null): void {
  for (const child of node.children) {
    if (typeof child === 'string') {
      if (inherited === null) plainTokens(child, lang, out);
      else out.push([inherited, child]);
      continue;
    }
    const scope = child.scope ?? '';
    let cls = SCOPES[scope] ?? SCOPES[scope.split('.')[0]] ?? null;
    const text = flatText(child);
    if (cls === 'mi') cls = numberClass(text);
    else if (cls === 's') cls = stringClass(text);
    else if (cls === 'c') cls = commentClass(text, out.length < 3 && out.every(([, t]) => !t.trim()));
    else if (cls === 'k' && WORDS[lang]?.[text]) cls = WORDS[lang][text];
    // Parameters and other containers are transparent: their parts are classed on their own.
    walk(child, lang, out, cls ?? inherited);
  }
}

const flatText = (node: HljsNode): string => node.children.map((c) => (typeof c === 'string' ? c : flatText(c))).join('');

function tokensHtml(tokens: Token[]): string {
  const out: string[] = [];
  let cls = '';
  let run = '';
  const flush = () => {
    if (run) out.push(cls ? `<span class="${cls}">${escapeHtml(run)}</span>` : escapeHtml(run));
    run = '';
  };
  for (const [c, t] of tokens) {
    // A token's own newline ends its span, as Pygments ends a line.
    const parts = c ? t.split(/(\n)/) : [t];
    for (const part of parts) {
      if (!part) continue;
      const partCls = part === '\n' ? '' : c;
      if (partCls !== cls) flush();
      cls = partCls;
      run += part;
    }
  }
  flush();
  return out.join('');
}

// Pygments reads a language off a first line like `#!python` or `:::python` when the fence names none.
const HEADER = /^(?:::+|(#!))((?:\/\w+)*[/ ])?([\w#.+-]*)/;

export function headerLanguage(code: string): string | null {
  const m = HEADER.exec(code.split('\n')[0]);
  return m ? m[3].toLowerCase() : null;
}

// Highlighted code, or null when the language is not highlighted.
function highlightTokens(code: string, lang: string): string | null {
  const name = pygmentsName(lang);
  if (!name) return null;
  const language = hljsLanguage(lang, name);
  if (!language) return null;
  const result = hljs().highlight(code, { language, ignoreIllegals: true }) as unknown as { _emitter: { rootNode: HljsNode } };
  const tokens: Token[] = [];
  walk(result._emitter.rootNode, name, tokens, null);
  return tokensHtml(tokens);
}

// The whole block. `lang` is the fence's (lower-cased) language, or null.
export function formatCode(lang: string | null, text: string, dropHeader = false): string {
  let src = text.replace(/^\n+|\n+$/g, '');
  let hiliteLang = lang;
  if (!lang) {
    hiliteLang = headerLanguage(src);
    if (hiliteLang !== null && dropHeader && !HEADER.exec(src)![2]) src = src.split('\n').slice(1).join('\n').replace(/^\n+/, '');
  }
  const body = `${src}\n`;
  const highlighted = hiliteLang ? highlightTokens(body, hiliteLang) : null;
  let inner = highlighted ?? escapeHtml(body);
  if (!lang) return `<div class="codehilite"><pre><span></span><code>${inner}</code></pre></div>`;
  // The reference re-serializes the block to add the language, which leaves quotes unescaped.
  inner = inner.replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  const language = pygmentsName(lang) ?? lang;
  return `<div class="codehilite" data-code-language="${escapeHtml(language)}"><pre><span></span><code>${inner}</code></pre></div>`;
}
