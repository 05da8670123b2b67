// Message Markdown: the shared safe renderer plus mentions (users, groups, wildcards), channel links, emoji,
// linkifiers, spoilers and /me. Names need looking up first, so rendering is two steps: `mentionCandidates` lists
// what to look up, `renderMessage` renders with the looked-up people, groups, channels, emoji and linkifiers.
import MarkdownIt from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';
import { emojiHtml, EMOJI_SYNTAX, unicodeEmojiPieces, type CustomEmojiTarget } from './emoji.js';
import { applyLinkifiers, topicLinks, type CompiledLinkifier } from './linkifiers.js';
import { channelNarrow } from '../lib/mention-syntax.js';
import { validateLink } from './render.js';

export interface MentionTarget { id: number; fullName: string }
export interface GroupTarget { id: number; name: string }
export interface ChannelTarget { id: number; name: string }

export interface RenderContext {
  usersByName: Map<string, MentionTarget[]>; // lower-cased full name → users
  usersById: Map<number, MentionTarget>;
  groupsByName: Map<string, GroupTarget>;
  channelsByName: Map<string, ChannelTarget>;
  realmEmoji?: Map<string, CustomEmojiTarget>; // active custom emoji by name
  linkifiers?: CompiledLinkifier[]; // in the order they apply
}

export interface Rendered {
  html: string;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  isMeMessage: boolean;
}

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);
// Sticky, and bounded in length (names are at most 100 characters), so a failed match costs little.
const USER_MENTION = /@(_?)\*\*([^*\n]{1,200}?)\*\*/y;
const GROUP_MENTION = /@(_?)\*([^*\n]{1,200}?)\*/y;
const CHANNEL_LINK = /#\*\*([^*\n]{1,200}?)\*\*/y;
// Spoilers inside spoilers are rendered up to this depth; deeper ones stay code blocks.
const MAX_SPOILER_DEPTH = 8;

interface Env {
  ctx: RenderContext;
  out: Rendered;
  spoilerDepth: number;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function stickyMatch(re: RegExp, src: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(src);
}

function html(state: StateInline, content: string): void {
  const token = state.push('html_inline', '', 0);
  token.content = content;
}

function mention(state: StateInline, silent: boolean): boolean {
  const env = state.env as unknown as Env;
  let m = stickyMatch(USER_MENTION, state.src, state.pos);
  if (m) {
    const quiet = m[1] === '_';
    const [name, idPart] = m[2].split('|');
    const lower = name.trim().toLowerCase();
    let piece: string | null = null;
    if (!idPart && STREAM_WILDCARDS.has(lower)) {
      if (!quiet) env.out.streamWildcard = true;
      piece = `<span class="user-mention channel-wildcard-mention${quiet ? ' silent' : ''}" data-user-id="*">${quiet ? '' : '@'}${escape(lower)}</span>`;
    } else if (!idPart && lower === 'topic') {
      if (!quiet) env.out.topicWildcard = true;
      piece = `<span class="topic-mention${quiet ? ' silent' : ''}">${quiet ? '' : '@'}topic</span>`;
    } else {
      const byId = idPart && /^\d+$/.test(idPart) ? env.ctx.usersById.get(Number(idPart)) : undefined;
      const byName = env.ctx.usersByName.get(lower);
      const user = byId && (!name.trim() || byId.fullName.toLowerCase() === lower) ? byId : byName?.length === 1 ? byName[0] : undefined;
      if (user) {
        if (!quiet) env.out.mentionedUserIds.add(user.id);
        piece = `<span class="user-mention${quiet ? ' silent' : ''}" data-user-id="${user.id}">${quiet ? '' : '@'}${escape(user.fullName)}</span>`;
      }
    }
    if (!piece) return false;
    if (!silent) html(state, piece);
    state.pos += m[0].length;
    return true;
  }
  m = stickyMatch(GROUP_MENTION, state.src, state.pos);
  if (m) {
    const group = env.ctx.groupsByName.get(m[2].trim().toLowerCase());
    if (!group) return false;
    const quiet = m[1] === '_';
    if (!quiet) env.out.mentionedGroupIds.add(group.id);
    if (!silent) html(state, `<span class="user-group-mention${quiet ? ' silent' : ''}" data-user-group-id="${group.id}">${quiet ? '' : '@'}${escape(group.name)}</span>`);
    state.pos += m[0].length;
    return true;
  }
  return false;
}

// `#**channel**`, `#**channel>topic**`, and `#**channel>topic@message id**` for a link to one message.
function channelLink(state: StateInline, silent: boolean): boolean {
  const m = stickyMatch(CHANNEL_LINK, state.src, state.pos);
  if (!m) return false;
  const [name, rest] = m[1].split('>');
  const near = rest === undefined ? null : /^(.*)@(\d+)$/.exec(rest);
  const topic = near ? near[1] : rest;
  const channel = (state.env as unknown as Env).ctx.channelsByName.get(name.trim().toLowerCase());
  if (!channel) return false;
  if (!silent) {
    const href = `/${channelNarrow(channel, topic)}${near ? `/near/${near[2]}` : ''}`;
    const label = topic === undefined ? `#${escape(channel.name)}` : `#${escape(channel.name)} &gt; ${escape(topic)}${near ? ' @ 💬' : ''}`;
    const kind = near ? 'message-link' : topic === undefined ? 'stream' : 'stream-topic';
    html(state, `<a class="${kind}" data-stream-id="${channel.id}" href="${escape(href)}">${label}</a>`);
  }
  state.pos += m[0].length;
  return true;
}

function emoji(state: StateInline, silent: boolean): boolean {
  const m = stickyMatch(EMOJI_SYNTAX, state.src, state.pos);
  if (!m) return false;
  const piece = emojiHtml(m[1], (state.env as unknown as Env).ctx.realmEmoji);
  if (!piece) return false;
  if (!silent) html(state, piece);
  state.pos += m[0].length;
  return true;
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.validateLink = validateLink;
const safeUrl = (url: string) => md.validateLink(md.normalizeLink(url));

md.inline.ruler.before('emphasis', 'mention', (state, silent) => state.src.charCodeAt(state.pos) === 0x40 && mention(state, silent));
md.inline.ruler.before('emphasis', 'channel_link', (state, silent) => state.src.charCodeAt(state.pos) === 0x23 && channelLink(state, silent));
md.inline.ruler.before('emphasis', 'emoji', (state, silent) => state.src.charCodeAt(state.pos) === 0x3a && emoji(state, silent));

// Text left after parsing: linkifiers apply outside links, and emoji typed as characters become emoji markup.
function textToTokens(state: StateCore, text: Token, inLink: boolean): Token[] {
  const linkifiers = (state.env as unknown as Env).ctx.linkifiers;
  const pieces = !inLink && linkifiers?.length ? applyLinkifiers(text.content, linkifiers, safeUrl) : [text.content];
  const out: Token[] = [];
  const pushText = (content: string) => {
    for (const piece of unicodeEmojiPieces(content)) {
      const t = new state.Token(typeof piece === 'string' ? 'text' : 'html_inline', '', 0);
      t.content = typeof piece === 'string' ? piece : piece.html;
      out.push(t);
    }
  };
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      pushText(piece);
      continue;
    }
    const url = md.normalizeLink(piece.url);
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', url], ['title', url]];
    out.push(open);
    pushText(piece.text);
    out.push(new state.Token('link_close', 'a', -1));
  }
  return out;
}

md.core.ruler.push('emoji_and_linkifiers', (state) => {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children: Token[] = [];
    let inLink = 0;
    for (const t of block.children) {
      if (t.type === 'link_open') inLink++;
      else if (t.type === 'link_close') inLink--;
      if (t.type === 'text' && t.content) children.push(...textToTokens(state, t, inLink > 0));
      else children.push(t);
    }
    block.children = children;
  }
});

const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  (env as unknown as Env).out.hasLink = true;
  return defaultLink(tokens, idx, options, env, self);
};

// ```spoiler Header ... ``` shows the header and hides the content, both rendered as Markdown.
const defaultFence = md.renderer.rules.fence!;
md.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const m = /^spoiler(?:\s+([^]*))?$/.exec(tokens[idx].info.trim());
  const e = env as unknown as Env;
  if (!m || e.spoilerDepth >= MAX_SPOILER_DEPTH) return defaultFence(tokens, idx, options, env, self);
  e.spoilerDepth++;
  const header = m[1] ? md.render(m[1], env) : '';
  const content = md.render(tokens[idx].content, env);
  e.spoilerDepth--;
  return `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${content}</div></div>\n`;
};

// Names that may be mentioned or linked, to look up before rendering.
export function mentionCandidates(content: string): { names: string[]; ids: number[]; groups: string[]; channels: string[] } {
  const names: string[] = [];
  const ids: number[] = [];
  const groups: string[] = [];
  const channels: string[] = [];
  for (const m of content.matchAll(/@_?\*\*([^*\n]+?)\*\*/g)) {
    const [name, id] = m[1].split('|');
    if (id && /^\d+$/.test(id)) ids.push(Number(id));
    if (name.trim()) names.push(name.trim().toLowerCase());
  }
  for (const m of content.matchAll(/@_?\*([^*\n]+?)\*(?!\*)/g)) groups.push(m[1].trim().toLowerCase());
  for (const m of content.matchAll(/#\*\*([^*\n>]+)/g)) channels.push(m[1].trim().toLowerCase());
  return { names, ids, groups, channels };
}

// Whether the content may name an emoji as `:name:`, so custom emoji need looking up.
export const mayNameEmoji = (content: string) => /:[\p{L}\p{N}_+-]+:/u.test(content);

export function renderMessage(content: string, ctx: RenderContext): Rendered {
  const out: Rendered = {
    html: '',
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
    // A status message, shown by clients with the sender's name in place of "/me", as the reference server has it.
    isMeMessage: content.startsWith('/me '),
  };
  out.html = md.render(content, { ctx, out, spoilerDepth: 0 } satisfies Env).trim();
  out.hasImage = /\.(png|jpe?g|gif|webp|bmp)(\?|$)/i.test(content) && out.hasLink;
  return out;
}

// Web addresses written in a topic, schemeless ones read as https.
function webLinks(text: string): { index: number; text: string; url: string }[] {
  return (md.linkify.match(text) ?? [])
    .filter((m) => m.schema === '' || /^https?:$/i.test(m.schema))
    .map((m) => ({ index: m.index, text: m.raw, url: m.schema === '' ? `https://${m.raw}` : m.url }));
}

export const renderTopicLinks = (topic: string, linkifiers: CompiledLinkifier[]) => topicLinks(topic, linkifiers, webLinks, safeUrl);
