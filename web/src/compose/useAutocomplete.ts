// Suggestions for the token at the compose box's caret: people (and @all/@topic), channels, a channel's topics,
// emoji. The candidates come from the state; emoji names load on first use.
import { useEffect, useMemo, useState } from 'react';
import { useServer } from '../data/hooks';
import { peopleList, sortedSubs } from '../data/selectors';
import { loadTopics } from '../data/actions';
import { codeToChars } from '../emoji/chars';
import { customEmoji, loadUnicodeEmoji, type EmojiEntry } from '../emoji/data';
import { channelSyntax, mentionSyntax, rank, tokenAt, topicSyntax, type Candidate, type Token } from './autocomplete';

const WILDCARDS = [
  { name: 'all', detail: 'Notify everyone here' },
  { name: 'topic', detail: 'Notify everyone in this topic' },
];

export function useAutocomplete(text: string, caret: number, enabled: boolean): { token: Token | null; candidates: Candidate[] } {
  const token = enabled ? tokenAt(text, caret) : null;
  const people = useServer((s) => peopleList(s.users));
  const subs = useServer((s) => sortedSubs(s.subs));
  const topics = useServer((s) => s.topics);
  const realmEmoji = useServer((s) => s.realmEmoji);
  const emojiUrl = useServer((s) => s.realm.emojiDataUrl);
  const [unicode, setUnicode] = useState<EmojiEntry[] | null>(null);

  useEffect(() => {
    if (token?.kind === 'emoji' && !unicode && emojiUrl) void loadUnicodeEmoji(emojiUrl).then(setUnicode).catch(() => {});
  }, [token?.kind, unicode, emojiUrl]);

  const topicChannel = token?.kind === 'topic' ? subs.find((s) => s.name.toLowerCase() === token.channel!.toLowerCase()) : undefined;
  useEffect(() => {
    if (topicChannel && !topics.has(topicChannel.stream_id)) void loadTopics(topicChannel.stream_id).catch(() => {});
  }, [topicChannel, topics]);

  const candidates = useMemo((): Candidate[] => {
    if (!token) return [];
    switch (token.kind) {
      case 'mention':
      case 'silent-mention': {
        const silent = token.kind === 'silent-mention';
        const found = rank(people, token.query, (u) => `${u.full_name} ${u.email}`, 8).map((u) => ({ key: `u${u.user_id}`, label: u.full_name, detail: u.email, insert: mentionSyntax(u.full_name, u.user_id, silent) }));
        const wild = silent ? [] : WILDCARDS.filter((w) => w.name.startsWith(token.query.toLowerCase())).map((w) => ({ key: w.name, label: w.name, detail: w.detail, insert: `@**${w.name}** ` }));
        return [...found, ...wild].slice(0, 8);
      }
      case 'channel':
        return rank(subs, token.query, (s) => s.name, 8).map((s) => ({ key: `c${s.stream_id}`, label: `#${s.name}`, detail: s.description, insert: channelSyntax(s.name) }));
      case 'topic':
        if (!topicChannel) return [];
        return rank(topics.get(topicChannel.stream_id) ?? [], token.query, (t) => t.name, 8).map((t) => ({ key: t.name, label: t.name, insert: topicSyntax(topicChannel.name, t.name) }));
      case 'emoji': {
        const all = [...customEmoji(realmEmoji), ...(unicode ?? [])];
        return rank(all, token.query, (e) => e.names.join(' '), 8).map((e) => ({
          key: `${e.type}:${e.code}`, label: `:${e.name}:`, insert: `:${e.name}: `, glyph: e.chars ?? (e.type === 'unicode_emoji' ? codeToChars(e.code) : undefined), image: e.image,
        }));
      }
    }
  }, [token?.kind, token?.query, token?.channel, people, subs, topics, topicChannel, realmEmoji, unicode]); // eslint-disable-line react-hooks/exhaustive-deps

  return { token, candidates };
}
