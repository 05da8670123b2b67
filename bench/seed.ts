// Fast seeding for the benchmarks, written from the benchmark process (as the command-line tools write) while
// the server under test runs. Channels are created through the actions; users and subscriptions, which come by
// the thousand, are bulk inserts of the rows the actions would write (without the events announcing them, which
// no queue registered later would receive anyway).
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import type { App } from '../src/app.js';
import { doSubscribe } from '../src/actions/subscriptions.js';
import { randomToken } from '../src/lib/secrets.js';
import { systemGroupIds } from '../src/store/groups.js';
import { findRealmBySubdomain, type Realm } from '../src/store/realms.js';
import { findUser, ROLE, type User } from '../src/store/users.js';
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

const CHUNK = 500;

// Members named `<prefix><i>@zulip.example.com`, without passwords, in the role groups a member belongs to.
export async function bulkUsers(app: App, realm: Realm, count: number, prefix = 'bench'): Promise<Seeded['users']> {
  const groups = await systemGroupIds(app.db, realm.id);
  const now = Math.floor(Date.now() / 1000);
  const users: Seeded['users'] = [];
  await app.db.transaction().execute(async (tx) => {
    for (let i = 0; i < count; i += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, count - i) }, (_, j) => {
        const email = `${prefix}${i + j}@zulip.example.com`;
        return { realm_id: realm.id, email, delivery_email: email, email_key: email, full_name: `${prefix} user ${i + j}`, role: ROLE.member, bot_type: null, bot_owner_id: null, password_hash: null, api_key: randomToken(32), date_joined: now };
      });
      const ids = await tx.insertInto('users').values(rows).returning('id').execute();
      rows.forEach((r, j) => users.push({ id: ids[j].id, email: r.email, apiKey: r.api_key }));
      const memberships = ids.flatMap(({ id }) => ['role:fullmembers', 'role:members'].map((g) => ({ group_id: groups.get(g)!, user_id: id })));
      await tx.insertInto('user_group_members').values(memberships).execute();
    }
  });
  return users;
}

// Creates a public channel (through the action, as `owner`) and subscribes the users to it in bulk.
export async function bulkChannel(app: App, realm: Realm, owner: User, name: string, userIds: number[]): Promise<number> {
  await doSubscribe(app, realm, owner, {
    subscriptions: [{ name }], authorizationErrorsFatal: true, isDefaultStream: false, inviteOnly: false, isWebPublic: false,
    topicsPolicy: 'inherit', groupSettings: {}, announce: false, sendNewSubscriptionMessages: false,
  }, 'http://bench.invalid');
  const stream = await app.db.selectFrom('streams').select('id').where('realm_id', '=', realm.id).where('name', '=', name).executeTakeFirstOrThrow();
  const others = userIds.filter((id) => id !== owner.id);
  await app.db.transaction().execute(async (tx) => {
    for (let i = 0; i < others.length; i += CHUNK) {
      await tx.insertInto('subscriptions').values(others.slice(i, i + CHUNK).map((user_id) => ({ user_id, stream_id: stream.id, color: '#76ce90' }))).execute();
    }
  });
  return stream.id;
}

export interface NewChannelMessage {
  senderId: number;
  topic: string;
  content: string;
}

// Messages to one channel, with a user_messages row for each of `recipients` (read, for all but `unread`).
export async function bulkMessages(app: App, realm: Realm, stream: { id: number; recipientId: number }, recipients: number[], messages: NewChannelMessage[], unread = new Set<number>()): Promise<void> {
  const start = Math.floor(Date.now() / 1000) - messages.length;
  const batchSize = Math.max(1, Math.floor(CHUNK * 4 / Math.max(1, recipients.length)));
  await app.db.transaction().execute(async (tx) => {
    for (let i = 0; i < messages.length; i += batchSize) {
      const batch = messages.slice(i, i + batchSize).map((m, j) => ({
        realm_id: realm.id, sender_id: m.senderId, recipient_id: stream.recipientId, stream_id: stream.id, topic: m.topic,
        topic_key: m.topic.toLowerCase(), content: m.content, rendered_content: `<p>${m.content}</p>`, date_sent: start + i + j, client: 'bench',
      }));
      const ids = await tx.insertInto('messages').values(batch).returning('id').execute();
      const rows = ids.flatMap(({ id }, j) => recipients.map((u) => ({ user_id: u, message_id: id, flags: unread.has(u) && u !== batch[j].sender_id ? 0 : 1 })));
      for (let k = 0; k < rows.length; k += CHUNK * 4) await tx.insertInto('user_messages').values(rows.slice(k, k + CHUNK * 4)).execute();
      if (app.dialect === 'sqlite') {
        await sql`insert into message_search (rowid, topic, content) select id, topic, content from messages where id in (${sql.join(ids.map((r) => r.id))})`.execute(tx);
      }
    }
  });
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
