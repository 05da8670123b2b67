// Bots through which the server itself speaks. The reference server keeps them in an internal organization
// shared by all; here each organization gets its own, created the first time it is needed.
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findUserByEmail, listUsers, ROLE, type User } from '../store/users.js';
import type { Emit } from './transaction.js';
import { insertUserInTx } from './users.js';

interface SystemBot {
  localPart: string;
  fullName: string;
}

const NOTIFICATION_BOT: SystemBot = { localPart: 'notification-bot', fullName: 'Notification Bot' };
const WELCOME_BOT: SystemBot = { localPart: 'welcome-bot', fullName: 'Welcome Bot' };

// `host` names the organization (its URL's host) for the bot's e-mail address when the bot is created; a bot
// created under another host is still found.
async function systemBot(tx: Tx, emit: Emit, realm: Realm, host: string, bot: SystemBot): Promise<User> {
  const email = `${bot.localPart}@${host}`;
  const found =
    (await findUserByEmail(tx, realm.id, email)) ??
    (await listUsers(tx, realm.id)).find((u) => u.isBot && u.botOwnerId === null && u.email.startsWith(`${bot.localPart}@`));
  if (found?.isBot) return found;
  return insertUserInTx(tx, emit, realm.id, {
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
