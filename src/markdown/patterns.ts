// The Markdown inline patterns, as the reference configures them: code spans keep their spaces, `*` (never `_`)
// makes emphasis and `**` strong, within one line; `~~` strikes through; `[text](url)` links with the
// reference's bracket matching; `&entity;` passes through; a newline is a line break.
import { El, codeEscape } from './tree.js';
import { rewriteLocalLink, sanitizeUrl, urlToA, webLinkRegex } from './links.js';
import type { InlineRun, Node, Pattern } from './inline.js';
import type { RenderEnv } from './env.js';

export const STX = '\u0002';
export const ETX = '\u0003';

export const envOf = (run: InlineRun) => (run as InlineRun & { env: RenderEnv }).env;

export const backtick: Pattern = {
  name: 'backtick',
  legacy: false,
  needs: /[`\\]/,
  re: /(?:(?<!\\)((?:\\{2})+)(?=`+)|(?<!\\)(`+)(.+?)(?<!`)\2(?!`))/gs,
  handle(m) {
    if (m[3]) return { node: new El('code').setText(codeEscape(m[3]), true), start: m.index, end: m.index + m[0].length };
    return { node: m[1].replace(/\\\\/g, `${STX}92${ETX}`), start: m.index, end: m.index + m[0].length };
  },
};

// `**`/`*`/`~~` patterns: the marked text becomes the element's text.
function simpleTag(name: string, re: RegExp, tag: string, needs: RegExp): Pattern {
  return { name, legacy: true, re, needs, handle: (m) => ({ node: new El(tag).setText(m[2]) }) };
}

export const strongEm: Pattern = {
  name: 'strong_em',
  legacy: true,
  needs: /\*\*\*/,
  re: /(\*\*\*)(?!\s+)([^*^\n]+)(?<!\s)\*\*\*/,
  handle(m) {
    const strong = new El('strong');
    strong.sub('em').setText(m[2]);
    return { node: strong };
  },
};

export const strong = simpleTag('strong', /(\*\*)([^\n]+?)\1/, 'strong', /\*\*/);
export const emphasis = simpleTag('emphasis', /(\*)(?!\s+)([^*^\n]+)(?<!\s)\*/, 'em', /\*/);
export const strikethrough = simpleTag('del', /(?<!~)(~~)([^~\n]+?)(~~)(?!~)/, 'del', /~~/);

export const notStrong: Pattern = {
  name: 'not_strong',
  legacy: false,
  needs: /[*_]/,
  re: /((^|(?<=\s))(\*{1,3}|_{1,3})(?=\s|$))/g,
  handle: (m) => ({ node: m[1], start: m.index, end: m.index + m[0].length }),
};

export const entity: Pattern = {
  name: 'entity',
  legacy: false,
  needs: /&/,
  re: /(&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)/g,
  handle: (m, _data, run) => ({ node: envOf(run).stash.store(m[1]), start: m.index, end: m.index + m[0].length }),
};

export const lineBreak: Pattern = {
  name: 'nl',
  legacy: false,
  needs: /\n/,
  re: /\n/g,
  handle: (m) => ({ node: new El('br'), start: m.index, end: m.index + 1 }),
};

// `[text](url "title")`: brackets and parentheses are counted, quotes may hold a title.
function getText(data: string, index: number): [string, number, boolean] {
  let depth = 1;
  let text = '';
  for (let pos = index; pos < data.length; pos++) {
    const c = data[pos];
    if (c === ']') depth--;
    else if (c === '[') depth++;
    index++;
    if (depth === 0) break;
    text += c;
  }
  return [text, index, depth === 0];
}

const LINK_TARGET = /\(\s*(?:(<[^<>]*>)\s*(?:('[^']*'|"[^"]*")\s*)?\))?/y;

function getLink(data: string, start: number, run: InlineRun): [string, string | null, number, boolean] {
  let href = '';
  let title: string | null = null;
  let index = start;
  LINK_TARGET.lastIndex = start;
  const m = LINK_TARGET.exec(data);
  let handled = false;
  if (m && m[1]) {
    href = m[1].slice(1, -1).trim();
    if (m[2]) title = m[2].slice(1, -1);
    index = m.index + m[0].length;
    handled = true;
  } else if (m) {
    let brackets = 1;
    let backtrack = 1;
    const begin = m.index + m[0].length;
    index = begin;
    let lastBracket = -1;
    let quote: string | null = null;
    let startQuote = -1;
    let exitQuote = -1;
    let ignore = false;
    let altQuote: string | null = null;
    let startAlt = -1;
    let exitAlt = -1;
    let last = '';
    for (let pos = index; pos < data.length; pos++) {
      const c = data[pos];
      if (c === '(') {
        if (!ignore) brackets++;
        else if (backtrack > 0) backtrack--;
      } else if (c === ')') {
        if ((exitQuote !== -1 && quote === last) || (exitAlt !== -1 && altQuote === last)) brackets = 0;
        else if (!ignore) brackets--;
        else if (backtrack > 0) {
          backtrack--;
          if (backtrack === 0) lastBracket = index + 1;
        }
      } else if (c === "'" || c === '"') {
        if (!quote) {
          ignore = true;
          backtrack = brackets;
          brackets = 1;
          startQuote = index + 1;
          quote = c;
        } else if (c !== quote && !altQuote) {
          startAlt = index + 1;
          altQuote = c;
        } else if (c === quote) exitQuote = index + 1;
        else if (altQuote && c === altQuote) exitAlt = index + 1;
      }
      index++;
      if (brackets === 0) {
        if (exitQuote >= 0 && quote === last) {
          href = data.slice(begin, startQuote - 1);
          title = data.slice(startQuote, exitQuote - 1);
        } else if (exitAlt >= 0 && altQuote === last) {
          href = data.slice(begin, startAlt - 1);
          title = data.slice(startAlt, exitAlt - 1);
        } else href = data.slice(begin, index - 1);
        break;
      }
      if (c !== ' ') last = c;
    }
    if (brackets !== 0 && backtrack === 0) {
      href = data.slice(begin, lastBracket - 1);
      index = lastBracket;
      brackets = 0;
    }
    handled = brackets === 0;
  }
  if (title !== null) title = run.unstash(dequote(title.trim())).replace(/\s/g, ' ');
  return [run.unstash(href).trim(), title, index, handled];
}

const dequote = (s: string) => ((s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'")) ? s.slice(1, -1) : s);

export const link: Pattern = {
  name: 'link',
  legacy: false,
  needs: /\[/,
  re: /(?<!!)\[/g,
  handle(m, data, run) {
    const [text, afterText, textOk] = getText(data, m.index + 1);
    if (!textOk) return { node: null };
    const [href0, title, end, linkOk] = getLink(data, afterText, run);
    if (!linkOk) return { node: null };
    const href = sanitizeUrl(run.unstash(href0.trim()));
    if (href === null) return { node: null };
    const a = new El('a', { href: rewriteLocalLink(envOf(run).ctx.realmUrl, href) });
    if (title !== null) a.set('title', title);
    a.setText(!text || !text.trim() ? a.get('href')! : text, true);
    return { node: a, start: m.index, end };
  },
};

export const autolink: Pattern = {
  name: 'autolink',
  legacy: true,
  needs: /[.:@]/,
  get re() {
    return webLinkRegex();
  },
  handle: (m, _data, run) => ({ node: urlToA(envOf(run).ctx.realmUrl, m.groups!.url) as Node }),
};
