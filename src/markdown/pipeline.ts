// The rendering pipeline, in the reference renderer's order: line preprocessing (hanging lists, whitespace,
// fences), blocks, indented code highlighted, inline patterns, newlines between blocks, previews, HTML, and
// the stashed HTML (code, math, spoiler markup, entities) put back.
import { El, isBlockLevel, serializeInner } from './tree.js';
import { BlockParser } from './block-parser.js';
import { blockProcessors } from './blocks.js';
import { fencedBlocks, hangingLists, normalizeWhitespace, type Stash } from './fences.js';
import { formatCode } from './highlight.js';
import { InlineRun, type Pattern } from './inline.js';
import { autolink, backtick, emphasis, entity, lineBreak, link, notStrong, strikethrough, strong, strongEm, STX, ETX } from './patterns.js';
import {
  channelLink, emojiName, emoticon, groupMention, linkifierPattern, messageLink, MENTION_RE, GROUP_MENTION_RE, tex, timestamp, topicLink,
  unicodeEmoji, userMention,
} from './chat-patterns.js';
import { inlinePreviews } from './previews.js';
import type { RenderEnv } from './env.js';

// Deeper nesting of quotes and lists than this is rendered as text.
const MAX_BLOCK_DEPTH = 100;

const BEFORE_LINKIFIERS: Pattern[] = [backtick, strongEm, userMention, tex, messageLink, topicLink, channelLink, timestamp, groupMention, link, autolink];
const AFTER_LINKIFIERS: Pattern[] = [entity, strong, emphasis, strikethrough, notStrong, emojiName, emoticon, lineBreak, unicodeEmoji];

// Mentions quoted from someone else notify no one.
const QUOTED_MENTION = new RegExp(MENTION_RE.source, 'g');
const QUOTED_GROUP_MENTION = new RegExp(GROUP_MENTION_RE.source, 'g');
const silence = (line: string) =>
  line.replace(QUOTED_MENTION, (_m, _s, _w, name) => `@_**${name}**`).replace(QUOTED_GROUP_MENTION, (_m, _s, _w, name) => `@_*${name}*`);
const PROCESSORS = blockProcessors(silence);

// Code blocks from indentation are highlighted like fenced ones, a `#!lang` first line naming the language.
function hiliteIndented(root: El, env: RenderEnv): void {
  for (const pre of [...root.iter('pre')]) {
    if (pre.children.length !== 1 || pre.children[0].tag !== 'code' || pre.children[0].text === null) continue;
    const text = pre.children[0].text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const placeholder = env.stash.store(formatCode(null, text, true));
    pre.tag = 'p';
    pre.children = [];
    pre.attrs.clear();
    pre.tail = null;
    pre.setText(placeholder);
  }
}

function prettify(el: El): void {
  if (isBlockLevel(el.tag) && el.tag !== 'code' && el.tag !== 'pre') {
    if ((!el.text || !el.text.trim()) && el.children.length && isBlockLevel(el.children[0].tag)) el.text = '\n';
    for (const c of el.children) if (isBlockLevel(c.tag)) prettify(c);
  }
  if (!el.tail || !el.tail.trim()) el.tail = '\n';
}

function prettifyTree(root: El): void {
  prettify(root);
  for (const br of root.iter('br')) br.tail = !br.tail || !br.tail.trim() ? '\n' : `\n${br.tail}`;
  for (const pre of root.iter('pre')) {
    const code = pre.children[0];
    if (code && code.tag === 'code' && !code.children.length && code.text !== null) code.setText(`${code.text.trimEnd()}\n`, true);
  }
}

const ESCAPED = new RegExp(`${STX}(\\d+)${ETX}`, 'g');
const unescape = (s: string) => s.replace(ESCAPED, (_, n) => String.fromCharCode(Number(n)));

function unescapeTree(root: El): void {
  for (const el of root.iter()) {
    if (el.text && el.tag !== 'code') el.text = unescape(el.text);
    if (el.tail) el.tail = unescape(el.tail);
    for (const [k, v] of el.attrs) el.attrs.set(k, unescape(v));
  }
}

const HTML_PLACEHOLDER = /<p>\u0002wzxhzdk:([0-9]+)\u0003<\/p>|\u0002wzxhzdk:([0-9]+)\u0003/g;
const BLOCK_START = /^<\/?([^ >]+)/;

function putBackStash(html: string, stash: Stash, depth = 0): string {
  if (!stash.blocks.length || depth > 8) return html;
  return html.replace(HTML_PLACEHOLDER, (whole, wrappedKey: string | undefined, bareKey: string | undefined) => {
    const key = Number(wrappedKey ?? bareKey);
    if (key >= stash.blocks.length) return whole;
    const raw = stash.blocks[key];
    const tag = BLOCK_START.exec(raw)?.[1];
    const block = tag !== undefined && ('!?@%'.includes(tag[0]) || isBlockLevel(tag));
    return putBackStash(wrappedKey === undefined || block ? raw : `<p>${raw}</p>`, stash, depth + 1);
  });
}

export function patternsFor(env: RenderEnv): Pattern[] {
  return [...BEFORE_LINKIFIERS, ...(env.ctx.linkifiers ?? []).map(linkifierPattern), ...AFTER_LINKIFIERS];
}

export function convert(content: string, env: RenderEnv): string {
  if (!content.trim()) return '';
  // A NUL is never text (browsers read it as U+FFFD); the server refuses it in requests anyway.
  let lines = hangingLists(content.replace(/\u0000/g, '\uFFFD').split('\n'));
  lines = normalizeWhitespace(lines);
  lines = fencedBlocks(lines, env.stash, env.ctx.defaultCodeBlockLanguage ?? null);
  const root = new El('div');
  new BlockParser(PROCESSORS, MAX_BLOCK_DEPTH).parseChunk(root, lines.join('\n'));
  hiliteIndented(root, env);
  const run = new InlineRun(patternsFor(env));
  (run as InlineRun & { env: RenderEnv }).env = env;
  run.run(root);
  prettifyTree(root);
  unescapeTree(root);
  inlinePreviews(root, env);
  return putBackStash(serializeInner(root).trim(), env.stash).trim();
}
