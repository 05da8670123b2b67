// Fast seeding for the benchmarks, written from the benchmark process (as the command-line tools write) while
// the server under test runs, with the bulk paths of `parlance populate` (src/actions/populate-org.ts,
// src/store/message-bulk.ts): users and channels through the actions, subscriptions and messages in bulk.
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import type { App } from '../src/app.js';
import { createChannel, createMembers } from '../src/actions/populate-org.js';
import { inTransaction } from '../src/actions/transaction.js';
import { renderMessage, type RenderContext } from '../src/markdown/message.js';
import { insertMessages, type BulkMessage } from '../src/store/message-bulk.js';
import { FLAG_BITS } from '../src/store/messages.js';
import { findRealmBySubdomain, type Realm } from '../src/store/realms.js';
import { noteFirstMessageId } from '../src/store/streams.js';
import { findUser, type User } from '../src/store/users.js';
import type { TestServer } from '../test/helpers/server.js';
import type { Credentials } from './tasks.js';

export interface Seeded {
  users: { id: number; email: string; apiKey: string }[];
}

export async function withServerApp<T>(server: TestServer, fn: (app: App, realm: Realm, owner: User) => Promise<T>): Promise<T> {
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    const owner = (await findUser(app.db, realm.id, server.users.iago.id))!;
    return await fn(app, realm, owner);
  } finally {
    app.limiter.close();
    await database.close();
  }
}

// Members named `<prefix><i>@zulip.example.com`, without passwords (as `parlance populate` makes them).
export async function bulkUsers(app: App, realm: Realm, count: number, prefix = 'bench'): Promise<Seeded['users']> {
  const people = Array.from({ length: count }, (_, i) => ({ email: `${prefix}${i}@zulip.example.com`, fullName: `${prefix} user ${i}` }));
  return (await createMembers(app, realm, people)).map((u) => ({ id: u.id, email: u.email, apiKey: u.apiKey }));
}

// A public channel created by `owner`, who is subscribed, with the users subscribed in bulk.
export function bulkChannel(app: App, realm: Realm, owner: User, name: string, userIds: number[]): Promise<number> {
  return createChannel(app, realm, owner, { name }, [owner.id, ...userIds.filter((id) => id !== owner.id)]);
}

export interface NewChannelMessage {
  senderId: number;
  topic: string;
  content: string;
}

// Messages to one channel, rendered, with a row for each of `recipients` (read, for all but `unread`), through
// the store's bulk path.
export async function bulkMessages(app: App, realm: Realm, stream: { id: number; recipientId: number }, recipients: number[], messages: NewChannelMessage[], unread = new Set<number>()): Promise<void> {
  const ctx: RenderContext = { usersByName: new Map(), usersById: new Map(), groupsByName: new Map(), channelsByName: new Map() };
  const start = Math.floor(Date.now() / 1000) - messages.length;
  const batch: BulkMessage[] = messages.map((m, i) => {
    const rendered = renderMessage(m.content, ctx);
    return {
      message: {
        realmId: realm.id, senderId: m.senderId, recipientId: stream.recipientId, streamId: stream.id, topic: m.topic, content: m.content,
        renderedContent: rendered.html, dateSent: start + i, client: 'bench', hasLink: rendered.hasLink, hasImage: rendered.hasImage,
        hasAttachment: false, isMeMessage: rendered.isMeMessage,
      },
      recipients: recipients.map((userId) => ({ userId, flags: unread.has(userId) && userId !== m.senderId ? 0 : FLAG_BITS.read })),
    };
  });
  const ids = await inTransaction(app, (tx) => insertMessages(tx, batch));
  if (ids.length) await noteFirstMessageId(app.db, stream.id, ids[0]);
}

// `count` members subscribed to a new channel `channel`.
export function seedUsersAndChannel(server: TestServer, count: number, channel: string): Promise<Seeded> {
  return seed(server, count, (users) => [{ name: channel, userIds: users.map((u) => u.id) }]);
}

// `count` members, then the channels `plan` makes of them.
export function seed(server: TestServer, count: number, plan: (users: Seeded['users']) => { name: string; userIds: number[] }[]): Promise<Seeded> {
  return withServerApp(server, async (app, realm, owner) => {
    const users = await bulkUsers(app, realm, count);
    for (const channel of plan(users)) await bulkChannel(app, realm, owner, channel.name, channel.userIds);
    return { users };
  });
}

export const credentials = (users: Seeded['users']): Credentials[] => users.map((u) => ({ email: u.email, apiKey: u.apiKey }));
