// Message Markdown: the shared safe renderer plus mentions (users, groups, wildcards) and channel links.
// Mentions need names resolved first, so rendering is two steps: `mentionCandidates` lists what to look up,
// `renderMessage` renders with the looked-up people, groups and channels.
import MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';

export interface MentionTarget { id: number; fullName: string }
export interface GroupTarget { id: number; name: string }
export interface ChannelTarget { id: number; name: string }

export interface RenderContext {
  usersByName: Map<string, MentionTarget[]>; // lower-cased full name → users
  usersById: Map<number, MentionTarget>;
  groupsByName: Map<string, GroupTarget>;
  channelsByName: Map<string, ChannelTarget>;
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
const USER_MENTION = /^@(_?)\*\*([^*\n]+?)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*\n]+?)\*/;
const CHANNEL_LINK = /^#\*\*([^*\n]+?)\*\*/;

interface Env {
  ctx: RenderContext;
  out: Rendered;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function html(state: StateInline, content: string): void {
  const token = state.push('html_inline', '', 0);
  token.content = content;
}

function mention(state: StateInline, silent: boolean): boolean {
  const src = state.src.slice(state.pos);
  const env = state.env as unknown as Env;
  let m = USER_MENTION.exec(src);
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
  m = GROUP_MENTION.exec(src);
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

function channelLink(state: StateInline, silent: boolean): boolean {
  const m = CHANNEL_LINK.exec(state.src.slice(state.pos));
  if (!m) return false;
  const [name, topic] = m[1].split('>');
  const channel = (state.env as unknown as Env).ctx.channelsByName.get(name.trim().toLowerCase());
  if (!channel) return false;
  if (!silent) {
    const slug = `${channel.id}-${encodeURIComponent(channel.name.replace(/ /g, '-'))}`;
    const href = topic === undefined ? `/#narrow/channel/${slug}` : `/#narrow/channel/${slug}/topic/${encodeURIComponent(topic)}`;
    const label = topic === undefined ? `#${escape(channel.name)}` : `#${escape(channel.name)} &gt; ${escape(topic)}`;
    html(state, `<a class="${topic === undefined ? 'stream' : 'stream-topic'}" data-stream-id="${channel.id}" href="${escape(href)}">${label}</a>`);
  }
  state.pos += m[0].length;
  return true;
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.inline.ruler.before('emphasis', 'mention', (state, silent) => state.src.charCodeAt(state.pos) === 0x40 && mention(state, silent));
md.inline.ruler.before('emphasis', 'channel_link', (state, silent) => state.src.charCodeAt(state.pos) === 0x23 && channelLink(state, silent));
const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  (env as unknown as Env).out.hasLink = true;
  return defaultLink(tokens, idx, options, env, self);
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

export function renderMessage(content: string, ctx: RenderContext): Rendered {
  const out: Rendered = {
    html: '',
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
    isMeMessage: /^\/me\s/.test(content),
  };
  out.html = md.render(content, { ctx, out } satisfies Env).trim();
  out.hasImage = /\.(png|jpe?g|gif|webp|bmp)(\?|$)/i.test(content) && out.hasLink;
  return out;
}
