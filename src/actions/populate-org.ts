// People and channels in bulk, for `parlance populate` and the benchmarks' seeding. People are created by the
// same code as any user (one transaction per thousand); a channel by the subscribe action, its members then
// added by the store's bulk subscribe without events — no client is registered yet to hear them, and a
// thousand subscription events each listing a thousand subscribers would cost more than the whole channel.
import type { App } from '../app.js';
import { insertPresences } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { findStreamByName } from '../store/streams.js';
import { activateSubscriptions, subscriptionColors } from '../store/subscriptions.js';
import { ROLE, type User } from '../store/users.js';
import { doSubscribe } from './subscriptions.js';
import { newSubscriptionColor } from './subscription-add.js';
import { inTransaction } from './transaction.js';
import { insertUserInTx, prepareUser, realmFakeEmailDomain } from './users.js';

const USERS_PER_TRANSACTION = 1000;

// Members without passwords (they use their API keys).
export async function createMembers(app: App, realm: Realm, people: { email: string; fullName: string }[]): Promise<User[]> {
  const created: User[] = [];
  for (let i = 0; i < people.length; i += USERS_PER_TRANSACTION) {
    const prepared = await Promise.all(people.slice(i, i + USERS_PER_TRANSACTION).map((p) => prepareUser(app, { ...p, password: null, role: ROLE.member })));
    created.push(...(await inTransaction(app, async (tx, emit) => {
      const out: User[] = [];
      for (const p of prepared) out.push(await insertUserInTx(tx, emit, realm, p, realmFakeEmailDomain(app, realm)));
      return out;
    })));
  }
  return created;
}

export interface NewChannel {
  name: string;
  description?: string;
  inviteOnly?: boolean;
}

// Creates the channel (as `creator`, with the first of `memberIds` subscribed by the action) and subscribes the
// others in bulk; returns the channel's id.
export async function createChannel(app: App, realm: Realm, creator: User, channel: NewChannel, memberIds: number[]): Promise<number> {
  const first = memberIds.length ? memberIds[0] : creator.id;
  await doSubscribe(app, realm, creator, {
    subscriptions: [{ name: channel.name, description: channel.description ?? '' }], principals: [first], authorizationErrorsFatal: true,
    isDefaultStream: false, inviteOnly: channel.inviteOnly ?? false, isWebPublic: false, topicsPolicy: 'inherit', groupSettings: {}, announce: false,
    sendNewSubscriptionMessages: false,
  }, 'http://populate.invalid');
  const stream = (await findStreamByName(app.db, realm.id, channel.name))!;
  const others = memberIds.filter((id) => id !== first);
  await inTransaction(app, async (tx) => {
    const taken = await subscriptionColors(tx, others);
    const pairs = others.map((userId) => ({ userId, streamId: stream.id, color: newSubscriptionColor(taken.get(userId)!, userId, stream.id) }));
    await activateSubscriptions(tx, pairs);
  });
  return stream.id;
}

// The users' presence as if each had pinged in the last minute (active in the last five), as a busy organization's
// online members have; written in bulk like the memberships, without events.
export async function writePresences(app: App, realm: Realm, users: User[]): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await inTransaction(app, (tx) => insertPresences(tx, realm.id, users.map((u, i) => ({ userId: u.id, lastConnectedTime: now - (i % 60), lastActiveTime: now - (i % 300) }))));
}
