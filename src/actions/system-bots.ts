// Bots through which the server itself speaks. The reference server keeps them in an internal organization
// shared by all; here each organization gets its own, created the first time it is needed. They are found by
// the role stored on their row (users.system_bot), never by address: no other row can be mistaken for one.
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findSystemBot, findUsersByIdentityKey, ROLE, type User } from '../store/users.js';
import { addressKey, SYSTEM_BOTS, type SystemBotRole } from '../lib/identity.js';
import type { Emit } from './transaction.js';
import { lockIdentities } from './identity.js';
import { insertUserInTx } from './users.js';

// The organization's Notification Bot, if it was created already.
export const findNotificationBot = (tx: Tx, realm: Realm) => findSystemBot(tx, realm.id, 'notification');

// `host` (the organization's host name, from configuration) is the domain of the bot's address when the bot is
// created. Should a row from before the address was reserved hold it, the bot takes the next free one.
async function systemBot(tx: Tx, emit: Emit, realm: Realm, host: string, role: SystemBotRole): Promise<User> {
  const existing = await findSystemBot(tx, realm.id, role);
  if (existing) return existing;
  // Two first notices at once on PostgreSQL would both create the bot: the second waits on the organization's
  // row and then finds the first one's (each statement reads the latest commits).
  await lockIdentities(tx, realm);
  const created = await findSystemBot(tx, realm.id, role);
  if (created) return created;
  const { localPart, fullName } = SYSTEM_BOTS[role];
  let email = `${localPart}@${host}`;
  for (let n = 2; (await findUsersByIdentityKey(tx, realm.id, addressKey(email))).length; n++) email = `${localPart}-${n}@${host}`;
  return insertUserInTx(tx, emit, realm, {
    email,
    fullName,
    password: null,
    passwordHash: null,
    role: ROLE.member,
    isBot: true,
    botType: 1,
    botOwnerId: null,
    systemBot: role,
  });
}

export const notificationBot = (tx: Tx, emit: Emit, realm: Realm, host: string) => systemBot(tx, emit, realm, host, 'notification');
export const welcomeBot = (tx: Tx, emit: Emit, realm: Realm, host: string) => systemBot(tx, emit, realm, host, 'welcome');
export const emailGatewayBot = (tx: Tx, emit: Emit, realm: Realm, host: string) => systemBot(tx, emit, realm, host, 'emailGateway');
