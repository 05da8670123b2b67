// Bots through which the server itself speaks. The reference server keeps them in an internal organization
// shared by all; here each organization gets its own, created the first time it is needed.
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findUserByEmail, listUsers, ROLE, type User } from '../store/users.js';
import type { Emit } from './transaction.js';
import { insertUserInTx } from './users.js';

const NOTIFICATION_BOT = { localPart: 'notification-bot', fullName: 'Notification Bot' };

// `host` names the organization (its URL's host) for the bot's e-mail address when the bot is created; a bot
// created under another host is still found.
export async function notificationBot(tx: Tx, emit: Emit, realm: Realm, host: string): Promise<User> {
  const email = `${NOTIFICATION_BOT.localPart}@${host}`;
  const found =
    (await findUserByEmail(tx, realm.id, email)) ??
    (await listUsers(tx, realm.id)).find((u) => u.isBot && u.botOwnerId === null && u.email.startsWith(`${NOTIFICATION_BOT.localPart}@`));
  if (found?.isBot) return found;
  return insertUserInTx(tx, emit, realm, {
    email,
    fullName: NOTIFICATION_BOT.fullName,
    password: null,
    passwordHash: null,
    role: ROLE.member,
    isBot: true,
    botType: 1,
    botOwnerId: null,
  });
}
