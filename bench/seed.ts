// Fast seeding for the benchmarks: users without passwords and channel subscriptions, written directly
// through the actions (one transaction per batch) before the server under test starts.
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import { doCreateUser } from '../src/actions/users.js';
import { doSubscribe } from '../src/actions/subscriptions.js';
import { findRealmBySubdomain } from '../src/store/realms.js';
import { findUser } from '../src/store/users.js';
import type { TestServer } from '../test/helpers/server.js';

export interface Seeded {
  users: { id: number; email: string; apiKey: string }[];
}

export function seedUsersAndChannel(server: TestServer, count: number, channel: string): Promise<Seeded> {
  return seed(server, count, (users) => [{ name: channel, userIds: users.map((u) => u.id) }]);
}

// `count` users, then the channels `plan` makes of them.
export async function seed(server: TestServer, count: number, plan: (users: Seeded['users']) => { name: string; userIds: number[] }[]): Promise<Seeded> {
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    const users: Seeded['users'] = [];
    for (let i = 0; i < count; i++) {
      const u = await doCreateUser(app, realm, { email: `bench${i}@zulip.example.com`, fullName: `Bench ${i}`, password: null, role: 400 });
      users.push({ id: u.id, email: u.email, apiKey: u.apiKey });
    }
    const owner = (await findUser(app.db, realm.id, server.users.iago.id))!;
    for (const channel of plan(users)) {
      for (let i = 0; i < channel.userIds.length; i += 1000) {
        await doSubscribe(app, realm, owner, {
          subscriptions: [{ name: channel.name }], principals: channel.userIds.slice(i, i + 1000), authorizationErrorsFatal: true,
          isDefaultStream: false, inviteOnly: false, isWebPublic: false, topicsPolicy: 'inherit', groupSettings: {},
          announce: false, sendNewSubscriptionMessages: false,
        }, server.url);
      }
    }
    return { users };
  } finally {
    app.limiter.close();
    await database.close();
  }
}
