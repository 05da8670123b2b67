// The chat's own inline syntax: mentions of users, groups and wildcards, links to channels, topics and
// messages, math, times, emoji (names, emoticons, characters) and linkifiers — each rendered as the reference
// renders it.
import { El } from './tree.js';
import { urlToA } from './links.js';
import { linkifierMatcher, type CompiledLinkifier } from './linkifiers.js';
import { envOf } from './patterns.js';
import { renderTex } from './tex.js';
import { parseTimestamp } from './timestamp.js';
import { customEmojiEl, emojiEl, emojiForChars, emoticonEmoji, EXTRA_EMOJI, EXTRA_EMOJI_URL, unicodeCodeForName } from './emoji.js';
import { channelNarrow } from '../lib/mention-syntax.js';
import type { Pattern } from './inline.js';
import type { MentionTarget } from './env.js';

// A mention or channel link starts after white space, an opening bracket or quote, or a slash.
const BEFORE = `(?<![^\\s'"({[/<])`;
export const MENTION_RE = new RegExp(`${BEFORE}@(?<silent>_?)(\\*\\*(?<match>[^*]+)\\*\\*)`, 'g');
export const GROUP_MENTION_RE = new RegExp(`${BEFORE}@(?<silent>_?)(\\*(?<match>[^*]+)\\*)`, 'g');

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);

const span = (cls: string, text: string, attrs: Record<string, string> = {}) => new El('span', { class: cls, ...attrs }).setText(text, true);
const whole = (m: RegExpExecArray) => ({ start: m.index, end: m.index + m[0].length });

export const userMention: Pattern = {
  name: 'usermention',
  needs: /@/,
  legacy: false,
  re: MENTION_RE,
  handle(m, _data, run) {
    const { ctx, out } = envOf(run);
    let name = m.groups!.match;
    const silent = m.groups!.silent === '_';
    const idSyntax = /^(.+)?\|(\d+)$/s.exec(name);
    const topicWildcard = name === 'topic';
    const streamWildcard = STREAM_WILDCARDS.has(name);
    let userId: string | null = null;
    if (streamWildcard) {
      if (!silent) out.streamWildcard = true;
      userId = '*';
    } else if (topicWildcard) {
      if (!silent) out.topicWildcard = true;
    } else {
      let user: MentionTarget | null = null;
      if (idSyntax) {
        user = ctx.usersById.get(Number(idSyntax[2])) ?? null;
        if (idSyntax[1] && user && user.fullName !== idSyntax[1]) return { node: null };
      } else {
        const found = ctx.usersByName.get(name.toLowerCase());
        user = found?.length === 1 ? found[0] : null;
      }
      if (!user) return { node: null };
      if (!silent) out.mentionedUserIds.add(user.id);
      name = user.fullName;
      userId = String(user.id);
    }
    const cls = topicWildcard ? 'topic-mention' : streamWildcard ? 'user-mention channel-wildcard-mention' : 'user-mention';
    return { node: span(silent ? `${cls} silent` : cls, silent ? name : `@${name}`, userId ? { 'data-user-id': userId } : {}), ...whole(m) };
  },
};

export const groupMention: Pattern = {
  name: 'usergroupmention',
  needs: /@/,
  legacy: false,
  re: GROUP_MENTION_RE,
  handle(m, _data, run) {
    const { ctx, out } = envOf(run);
    const group = ctx.groupsByName.get(m.groups!.match.toLowerCase());
    if (!group) return { node: null };
    const silent = m.groups!.silent === '_';
    if (!silent) out.mentionedGroupIds.add(group.id);
    const el = span(silent ? 'user-group-mention silent' : 'user-group-mention', silent ? group.name : `@${group.name}`, { 'data-user-group-id': String(group.id) });
    return { node: el, ...whole(m) };
  },
};

// The channel lookup decides what may be linked (the channels the sender may see); it is the only access check.
function findChannel(run: Parameters<Pattern['handle']>[2], name: string) {
  return envOf(run).ctx.channelsByName.get(name.trim().toLowerCase()) ?? null;
}

export const messageLink: Pattern = {
  name: 'stream_topic_message',
  needs: /#\*\*/,
  legacy: false,
  re: new RegExp(`${BEFORE}#\\*\\*(?<stream>[^*>]+)>(?<topic>[^*]+)@(?<id>\\d+)\\*\\*`, 'g'),
  handle(m, _data, run) {
    const channel = findChannel(run, m.groups!.stream);
    if (!channel) return { node: null };
    const topic = m.groups!.topic;
    const a = new El('a', { class: 'message-link', href: `/${channelNarrow(channel, topic)}/near/${m.groups!.id}` });
    a.setText(`#${channel.name} > ${topic} @ 💬`, true);
    return { node: a, ...whole(m) };
  },
};

export const topicLink: Pattern = {
  name: 'topic',
  needs: /#\*\*/,
  legacy: false,
  re: new RegExp(`${BEFORE}#\\*\\*(?<stream>[^*>]+)>(?<topic>[^*]+)\\*\\*`, 'g'),
  handle(m, _data, run) {
    const channel = findChannel(run, m.groups!.stream);
    if (!channel) return { node: null };
    const topic = m.groups!.topic;
    const a = new El('a', { class: 'stream-topic', 'data-stream-id': String(channel.id), href: `/${channelNarrow(channel, topic)}` });
    a.setText(`#${channel.name} > ${topic}`, true);
    return { node: a, ...whole(m) };
  },
};

export const channelLink: Pattern = {
  name: 'stream',
  needs: /#\*\*/,
  legacy: false,
  re: new RegExp(`${BEFORE}#\\*\\*(?<stream>[^*]+)\\*\\*`, 'g'),
  handle(m, _data, run) {
    const channel = findChannel(run, m.groups!.stream);
    if (!channel) return { node: null };
    const a = new El('a', { class: 'stream', 'data-stream-id': String(channel.id), href: `/${channelNarrow(channel)}` });
    a.setText(`#${channel.name}`, true);
    return { node: a, ...whole(m) };
  },
};

export const tex: Pattern = {
  name: 'tex',
  needs: /\$\$/,
  legacy: true,
  re: /\B(?<!\$)\$\$(?<body>[^\n_$](\\\$|[^$\n])*)\$\$(?!\$)\B/,
  handle(m, _data, run) {
    const body = m.groups!.body;
    const html = renderTex(body, true);
    if (html !== null) return { node: envOf(run).stash.store(html) };
    return { node: span('tex-error', `$$${body}$$`) };
  },
};

export const timestamp: Pattern = {
  name: 'timestamp',
  needs: /<time:/,
  legacy: true,
  re: /<time:(?<time>[^>]*?)>/,
  handle(m) {
    const input = m.groups!.time;
    const iso = parseTimestamp(input);
    if (iso === null) return { node: span('timestamp-error', `Invalid time format: ${input}`) };
    return { node: new El('time', { datetime: iso }).setText(input, true) };
  },
};

export const emojiName: Pattern = {
  name: 'emoji',
  needs: /:/,
  legacy: true,
  re: /(?<syntax>:[\p{L}\p{N}_\-+]+:)/u,
  handle(m, _data, run) {
    const syntax = m.groups!.syntax;
    const name = syntax.slice(1, -1);
    const own = envOf(run).ctx.realmEmoji?.get(name);
    if (own) return { node: customEmojiEl(own.sourceUrl, syntax) };
    if (name === EXTRA_EMOJI) return { node: customEmojiEl(EXTRA_EMOJI_URL, syntax) };
    const code = unicodeCodeForName(name);
    return { node: code ? emojiEl(code, syntax) : syntax };
  },
};

const TERMINAL = `,.;?!()\\[\\] "'\\n\\t`;
export const emoticon: Pattern = {
  name: 'translate_emoticons',
  needs: /[:;(<]/,
  legacy: true,
  re: new RegExp(`(?<![^${TERMINAL}])(?<emoticon>(:\\))|(\\(:)|(:\\()|(<3)|(:\\|)|(:/)|(;\\))|(:D)|(:o)|(:O)|(:p)|(:P))(?![^${TERMINAL}])`),
  handle(m, _data, run) {
    if (!envOf(run).ctx.translateEmoticons) return { node: null };
    return { node: emoticonEmoji(m.groups!.emoticon) };
  },
};

// One emoji as typed: a flag, or a pictograph with its modifiers, joined into sequences (Unicode TR51).
const ONE = '\\p{Emoji}(?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?';
export const unicodeEmoji: Pattern = {
  name: 'unicodeemoji',
  legacy: false,
  re: new RegExp(`(?<syntax>\\p{RI}\\p{RI}|${ONE}(?:\\u200D(?:\\p{RI}\\p{RI}|${ONE}))*)`, 'gu'),
  handle(m) {
    const el = emojiForChars(m.groups!.syntax);
    return el ? { node: el, ...whole(m) } : { node: null };
  },
};

export function linkifierPattern(l: CompiledLinkifier): Pattern {
  return {
    name: `linkifiers/${l.id}`,
    legacy: false,
    re: linkifierMatcher(l),
    handle(m, _data, run) {
      const a = urlToA(envOf(run).ctx.realmUrl, m.groups!.url, m[2]);
      if (typeof a === 'string') return { node: null };
      const start = m.index + m[1].length;
      return { node: a, start, end: start + m[2].length };
    },
  };
}
