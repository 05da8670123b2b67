// The messages of a planned organization, oldest first: which channel and topic (or group conversation), who
// sends, the text, and who holds a row for it with which flags. Pure and deterministic, like the plan.
import { int, shuffle, stream, zipf, type Random } from './random.js';
import { MENTION_SHARE, messageText } from './text.js';
import { HISTORY_DAYS, POSTER_RANKS, type Plan } from './plan.js';

export const FIRST_MEMBER = 1;

export interface PlannedRow {
  user: number;
  read: boolean;
  starred: boolean;
}

export interface PlannedMessage {
  channel: number | null; // null: a group direct message
  dmGroup: number; // its conversation (plan.dmGroups), for a direct message
  topic: string;
  sender: number;
  mention: number | null;
  text: string;
  rows: PlannedRow[];
  at: number; // its place in time, 0 (oldest) to 1
}

// Each channel message's channel, in order: every channel gets exactly its count, spread over the whole time.
function channelOrder(plan: Plan): Uint16Array | Uint32Array {
  const order = plan.channels.length < 65536 ? new Uint16Array(plan.options.messages) : new Uint32Array(plan.options.messages);
  let k = 0;
  plan.channels.forEach((c, i) => order.fill(i, k, (k += c.messages)));
  shuffle(stream(plan.options.seed, 'order'), order as unknown as number[]);
  return order;
}

export function* plannedMessages(plan: Plan, realmId: number): Generator<PlannedMessage> {
  const { messages, unreadDms, seed } = plan.options;
  const rnd = stream(seed, 'messages');
  const order = channelOrder(plan);
  const topicRank = plan.channels.map((c) => zipf(Math.max(1, c.topics.length - c.bigTopics)));
  const posterRank = plan.channels.map((c) => zipf(Math.min(POSTER_RANKS, c.posters.length)));
  const seen = plan.channels.map(() => 0); // messages of each channel so far
  const bigSent = plan.channels.map(() => 0);
  const hasFirst = plan.channels.map((c) => c.members.includes(FIRST_MEMBER));
  // The group direct messages are the newest: they came during the last day (as if the first member had been
  // away), so that the first member's newest unread messages are theirs, as in the case.
  const dmStart = unreadDms && plan.dmGroups.length ? 1 - 1 / HISTORY_DAYS : 1;
  for (let i = 0; i < messages; i++) yield channelMessage(i, messages > 1 ? (i / (messages - 1)) * dmStart : 0);
  if (dmStart === 1) return;
  for (let j = 0; j < unreadDms; j++) {
    const dmGroup = int(rnd, plan.dmGroups.length);
    const members = plan.dmGroups[dmGroup];
    const others = members.filter((u) => u !== FIRST_MEMBER);
    const sender = others[int(rnd, others.length)];
    const rows = members.map((user) => ({ user, read: user === sender || (user !== FIRST_MEMBER && rnd() >= 0.05), starred: false }));
    const at = dmStart + (unreadDms > 1 ? j / (unreadDms - 1) : 1) * (1 - dmStart);
    yield { channel: null, dmGroup, topic: '', sender, mention: null, text: messageText(rnd, realmId), rows, at };
  }

  function channelMessage(i: number, at: number): PlannedMessage {
    const c = order[i];
    const channel = plan.channels[c];
    const n = seen[c]++;
    let topic: string;
    const bigTotal = channel.bigTopics * channel.bigTopicSize;
    // The big topics' messages are spread evenly over the channel's.
    if (bigTotal && Math.floor(((n + 1) * bigTotal) / channel.messages) > Math.floor((n * bigTotal) / channel.messages)) {
      topic = channel.topics[bigSent[c]++ % channel.bigTopics];
    } else {
      topic = channel.topics[channel.bigTopics + topicRank[c](rnd)];
    }
    const poster = (r: Random) => channel.posters[posterRank[c](r)];
    const sender = poster(rnd);
    let mention: number | null = null;
    if (channel.members.length > 1 && rnd() < MENTION_SHARE) {
      mention = hasFirst[c] && sender !== FIRST_MEMBER && rnd() < 0.25 ? FIRST_MEMBER : poster(rnd);
      if (mention === sender) mention = channel.posters.find((u) => u !== sender)!;
    }
    const text = messageText(rnd, realmId, mention === null ? undefined : plan.users[mention].fullName);
    // Rows: the sender, the channel's readers and whom it mentions (see src/actions/populate.ts).
    const holders = new Set([sender, ...channel.readers, ...(mention === null ? [] : [mention])]);
    const rows = [...holders].map((user) => {
      if (user === sender) return { user, read: true, starred: false };
      const unread = user === FIRST_MEMBER ? 0.5 : user === mention ? 0.3 : 0.05;
      return { user, read: rnd() >= unread, starred: user === FIRST_MEMBER && rnd() < 0.01 };
    });
    return { channel: c, dmGroup: -1, topic, sender, mention, text, rows, at };
  }
}
