// Markdown the server writes into its own messages: silent mentions and links to channels, topics and
// messages, in the forms the reference server generates (zerver/lib/topic_link_util.py, url_encoding.py).
import { EMPTY_TOPIC_DISPLAY_NAME } from './text.js';

export const silentMention = (u: { id: number; fullName: string }) => `@_**${u.fullName}|${u.id}**`;
export const silentGroupMention = (name: string) => `@_*${name}*`;

// Names with these characters would break the #**channel>topic** syntax; a plain Markdown link is used then.
const BREAKS_LINK_SYNTAX = /[`>*&[\]]|\$\$/;
const ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', $$: '&#36;&#36;', '[': '&#91;', ']': '&#93;' };
const escapeName = (s: string) => s.replace(/[`>*&[\]]|\$\$/g, (m) => ESCAPES[m]);

// The reference's URL fragment encoding: percent-encoding with `.` in place of `%` (and `.` itself as `.2E`).
export function encodeHashComponent(s: string): string {
  const encoded = encodeURIComponent(s).replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encoded.replace(/[%.]/g, (c) => (c === '%' ? '.' : '.2E'));
}

const channelSlug = (id: number, name: string) => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

function fallbackLink(channelId: number, channel: string, topic?: string): string {
  let text = `#${escapeName(channel)}`;
  if (topic !== undefined) text += ` > ${escapeName(topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic)}`;
  return `[${text}](${channelNarrow({ id: channelId, name: channel }, topic)})`;
}

export function channelLinkSyntax(channelId: number, channel: string): string {
  return BREAKS_LINK_SYNTAX.test(channel) ? fallbackLink(channelId, channel) : `#**${channel}**`;
}

export function topicLinkSyntax(channelId: number, channel: string, topic: string): string {
  return BREAKS_LINK_SYNTAX.test(channel) || BREAKS_LINK_SYNTAX.test(topic) ? fallbackLink(channelId, channel, topic) : `#**${channel}>${topic}**`;
}

// The fragment of a channel (and topic) view.
export function channelNarrow(channel: { id: number; name: string }, topic?: string): string {
  const base = `#narrow/channel/${channelSlug(channel.id, channel.name)}`;
  return topic === undefined ? base : `${base}/topic/${encodeHashComponent(topic)}`;
}

export function messageUrl(realmUrl: string, channelId: number, channel: string, topic: string, messageId: number): string {
  return `${realmUrl}/${channelNarrow({ id: channelId, name: channel }, topic)}/near/${messageId}`;
}
