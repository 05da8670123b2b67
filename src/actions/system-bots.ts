// Bots through which the server itself speaks. The reference server keeps them in an internal organization
// shared by all; here each organization gets its own, created the first time it is needed.
import type { Tx } from '../store/db.js';
import { lockRealm, type Realm } from '../store/realms.js';
import { dialectOf } from '../store/search.js';
import { findUserByEmail, listUsers, ROLE, type User } from '../store/users.js';
import type { Emit } from './transaction.js';
import { insertUserInTx } from './users.js';

interface SystemBot {
  localPart: string;
  fullName: string;
}

const NOTIFICATION_BOT: SystemBot = { localPart: 'notification-bot', fullName: 'Notification Bot' };
const WELCOME_BOT: SystemBot = { localPart: 'welcome-bot', fullName: 'Welcome Bot' };

// By the address it would get under this host, else under any host it was created with.
async function findBot(tx: Tx, realm: Realm, bot: SystemBot, email?: string): Promise<User | undefined> {
  const found =
    (email === undefined ? undefined : await findUserByEmail(tx, realm.id, email)) ??
    (await listUsers(tx, realm.id)).find((u) => u.isBot && u.botOwnerId === null && u.email.startsWith(`${bot.localPart}@`));
  return found?.isBot ? found : undefined;
}

// The organization's Notification Bot, if it was created already.
export const findNotificationBot = (tx: Tx, realm: Realm) => findBot(tx, realm, NOTIFICATION_BOT);

// `host` names the organization (its URL's host) for the bot's e-mail address when the bot is created; a bot
// created under another host is still found.
async function systemBot(tx: Tx, emit: Emit, realm: Realm, host: string, bot: SystemBot): Promise<User> {
  const email = `${bot.localPart}@${host}`;
  const existing = await findBot(tx, realm, bot, email);
  if (existing) return existing;
  // Two first notices at once on PostgreSQL would both create the bot: the second waits on the organization's
  // row and then finds the first one's (each statement reads the latest commits).
  await lockRealm(tx, dialectOf(tx), realm.id);
  const created = await findBot(tx, realm, bot, email);
  if (created) return created;
  return insertUserInTx(tx, emit, realm, {
    email,
    fullName: bot.fullName,
    password: null,
    passwordHash: null,
    role: ROLE.member,
    isBot: true,
    botType: 1,
    botOwnerId: null,
  });
}

export const notificationBot = (tx: Tx, emit: Emit, realm: Realm, host: string) => systemBot(tx, emit, realm, host, NOTIFICATION_BOT);
export const welcomeBot = (tx: Tx, emit: Emit, realm: Realm, host: string) => systemBot(tx, emit, realm, host, WELCOME_BOT);
