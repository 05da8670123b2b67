// The organization `parlance populate` writes, worked out from the options and the seed alone (no database):
// people, channels with their members, topics and regular posters, and group direct-message conversations.
// Users and channels are numbered by position (user 0 is the owner, user 1 "the first member").
import { RESOLVED_TOPIC_PREFIX } from '../actions/message-move.js';
import { apportion, int, shuffle, stream, type Random } from './random.js';
import { CHANNEL_NAMES, FIRST_NAMES, LAST_NAMES, REAL_WORD_COUNT, VOCABULARY } from './words.js';

export interface PopulateOptions {
  users: number; // the owner included
  channels: number;
  messages: number; // channel messages
  seed: number;
  unreadDms: number; // group direct messages to the first member, unread
  bigTopics: number; // topics of BIG_TOPIC_SIZE messages in channel 1 (fewer when channel 1 is small)
  allUserChannels?: number; // channels of every user, the first ones (ALL_USER_CHANNELS when absent)
  activeUsers?: number; // the first users, with a presence of the last minutes (none when absent)
}

export const ALL_USER_CHANNELS = 20;
export const HISTORY_DAYS = 90; // messages are spread over the last 90 days
export const CHANNEL_1_SHARE = 0.16;
export const CHANNEL_1_TOPICS = 500;
export const BIG_TOPIC_SIZE = 2000;
export const bigTopicName = (i: number) => `big topic ${i + 1}`;
// Beyond the sender, the first member and whom a message mentions, the people of a channel who hold rows for its
// messages (see src/actions/populate.ts).
export const REGULAR_READERS = 3;
export const POSTER_RANKS = 40; // a channel's messages come mostly from its first few posters (Zipf)

export interface PlannedUser {
  fullName: string;
  email: string;
}

export interface PlannedChannel {
  name: string;
  description: string;
  inviteOnly: boolean;
  members: number[]; // user numbers, ascending
  messages: number;
  topics: string[];
  bigTopics: number; // the first `bigTopics` of `topics` are the big ones (channel 1 only)
  bigTopicSize: number;
  posters: number[]; // most active first
  readers: number[]; // users who hold rows for every message: the first member when a member, and regulars
}

export interface Plan {
  options: PopulateOptions;
  users: PlannedUser[];
  channels: PlannedChannel[];
  dmGroups: number[][]; // each with the first member
}

export function plannedUser(i: number): PlannedUser {
  const first = FIRST_NAMES[i % FIRST_NAMES.length];
  const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
  const round = Math.floor(i / (FIRST_NAMES.length * LAST_NAMES.length));
  const suffix = round ? ` ${round + 1}` : '';
  return { fullName: `${first} ${last}${suffix}`, email: `${first}.${last}${round ? round + 1 : ''}@example.com`.toLowerCase() };
}

function channelName(i: number): string {
  return i < CHANNEL_NAMES.length ? CHANNEL_NAMES[i] : `${CHANNEL_NAMES[i % CHANNEL_NAMES.length]}-${Math.floor(i / CHANNEL_NAMES.length) + 1}`;
}

function topicNames(rnd: Random, count: number, big: number): string[] {
  const names = Array.from({ length: big }, (_, b) => bigTopicName(b));
  const seen = new Set(names);
  while (names.length < count) {
    // Real words past the most common (articles and such).
    const words = Array.from({ length: 1 + int(rnd, 3) }, () => VOCABULARY[25 + int(rnd, REAL_WORD_COUNT - 25)]);
    let name = words.join(' ');
    if (rnd() < 0.3) name += ` ${1 + int(rnd, 50)}`;
    if (rnd() < 0.1) name = RESOLVED_TOPIC_PREFIX + name;
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

export function makePlan(options: PopulateOptions): Plan {
  const { users: userCount, channels: channelCount, messages, seed } = options;
  const users = Array.from({ length: userCount }, (_, i) => plannedUser(i));
  const weights = Array.from({ length: channelCount }, (_, c) => (c === 0 ? CHANNEL_1_SHARE : (1 - CHANNEL_1_SHARE) / (c + 1)));
  if (channelCount > 1) {
    // The other channels share the rest by rank.
    const rest = weights.slice(1).reduce((a, b) => a + b, 0);
    for (let c = 1; c < channelCount; c++) weights[c] = (weights[c] * (1 - CHANNEL_1_SHARE)) / rest;
  }
  const counts = apportion(messages, channelCount === 1 ? [1] : weights);
  const rnd = stream(seed, 'channels');
  const everyone = users.map((_, i) => i);
  const channels = counts.map((count, c): PlannedChannel => {
    const all = c < (options.allUserChannels ?? ALL_USER_CHANNELS);
    const members = all ? everyone : shuffle(rnd, [...everyone]).slice(0, Math.min(userCount, 30 + int(rnd, 371))).sort((a, b) => a - b);
    const big = c === 0 && count >= 4 ? Math.min(options.bigTopics, Math.floor(count / 4)) : 0;
    // Room for the ordinary topics too: the big ones take at most half of the channel's messages.
    const topicCount = count === 0 ? 0 : big + Math.min(CHANNEL_1_TOPICS, Math.max(1, Math.ceil(count / (c === 0 ? 320 : 60))));
    const posters = shuffle(rnd, [...members]);
    return {
      name: channelName(c),
      description: `Everything about ${channelName(c).replace(/-/g, ' ')}.`,
      inviteOnly: !all && rnd() < 0.1,
      members,
      messages: count,
      topics: topicNames(rnd, topicCount, big),
      bigTopics: big,
      bigTopicSize: big ? Math.min(BIG_TOPIC_SIZE, Math.floor(count / (2 * big))) : 0,
      posters,
      readers: [...new Set([...(members.includes(1) ? [1] : []), ...posters.slice(0, REGULAR_READERS)])],
    };
  });
  const dmRnd = stream(seed, 'direct messages');
  // Few conversations, each busy (the case: 50,000 unread in a handful of group chats).
  const groupCount = options.unreadDms ? Math.min(20, Math.ceil(options.unreadDms / 10_000)) : 0;
  const others = everyone.filter((u) => u !== 1);
  const dmGroups = Array.from({ length: groupCount }, () => [1, ...shuffle(dmRnd, [...others]).slice(0, 2 + int(dmRnd, 2))].sort((a, b) => a - b));
  return { options, users, channels, dmGroups };
}
