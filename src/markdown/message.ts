// Message Markdown as the reference server renders it (see pipeline.ts). Names need looking up first, so
// rendering is two steps: `mentionCandidates` lists what to look up, `renderMessage` renders with the
// looked-up people, groups, channels, emoji, linkifiers and uploads.
import { Stash } from './fences.js';
import { convert } from './pipeline.js';
import { topicLinks, type CompiledLinkifier } from './linkifiers.js';
import { sanitizeUrl, urlSplit, urlUnsplit, webLinkRegex } from './links.js';
import { MENTION_RE, GROUP_MENTION_RE } from './chat-patterns.js';
import type { RenderContext, Rendered } from './env.js';

export type { ChannelTarget, GroupTarget, MentionTarget, RenderContext, Rendered, UploadPreview } from './env.js';

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
    isMeMessage: /^\/me /.test(content),
    linksForPreview: [],
  };
  out.html = convert(content, { ctx, out, stash: new Stash() });
  return out;
}

// Names that may be mentioned or linked, to look up before rendering.
export function mentionCandidates(content: string): { names: string[]; ids: number[]; groups: string[]; channels: string[] } {
  const names: string[] = [];
  const ids: number[] = [];
  const groups: string[] = [];
  const channels: string[] = [];
  for (const m of content.matchAll(new RegExp(MENTION_RE.source, 'g'))) {
    const text = m.groups!.match;
    const id = /^(.+)?\|(\d+)$/s.exec(text);
    if (id) ids.push(Number(id[2]));
    const name = id ? id[1] : text;
    if (name) names.push(name.toLowerCase());
  }
  for (const m of content.matchAll(new RegExp(GROUP_MENTION_RE.source, 'g'))) groups.push(m.groups!.match.toLowerCase());
  for (const m of content.matchAll(/#\*\*([^*>]+)/g)) channels.push(m[1].trim().toLowerCase());
  return { names, ids, groups, channels };
}

// Whether the content may name an emoji as `:name:`, so custom emoji need looking up.
export const mayNameEmoji = (content: string) => /:[\p{L}\p{N}_+-]+:/u.test(content);

// Web addresses written in a topic (§2.4 topic_links), found as the reference finds them: the topic is cut at
// spaces and some punctuation, and each piece that starts with an address gives one; schemeless ones read
// as https.
const SPLITTER = /[ !;),'"]/g;
function webLinks(topic: string): { index: number; text: string; url: string }[] {
  const found: { index: number; text: string; url: string }[] = [];
  const re = webLinkRegex();
  let pos = 0;
  while (pos < topic.length) {
    SPLITTER.lastIndex = pos;
    const next = SPLITTER.exec(topic);
    const end = next ? next.index : topic.length;
    const m = re.exec(topic.slice(pos, end));
    if (m) {
      const text = m.groups!.url;
      const parts = urlSplit(text);
      let url = text;
      if (parts && !parts.scheme) {
        const { path } = parts;
        const slash = `${path}/`.indexOf('/');
        url = urlUnsplit({ ...parts, scheme: 'https', netloc: parts.netloc || path.slice(0, slash), path: parts.netloc ? path : path.slice(slash) });
      }
      found.push({ index: pos, text, url });
    }
    pos = end + 1;
  }
  return found;
}

const safeUrl = (url: string) => sanitizeUrl(url) !== null;

export const renderTopicLinks = (topic: string, linkifiers: CompiledLinkifier[]) => topicLinks(topic, linkifiers, webLinks, safeUrl);
