// Password reset by mail (the reference's /accounts/password/reset/ pages): a request names an address and is
// answered alike whether or not it belongs to an account (no enumeration); only an active account's own address
// gets a mail, whose link carries a single-use token valid PASSWORD_RESET_MINUTES. Setting the new password
// spends the token (and every other of the user's) and ends every browser session of the user, as a password
// change does. Requests are limited per IP address and per address asked about.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { passwordResetMail } from '../format/mails.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { ApiError, RateLimitedError } from '../lib/errors.js';
import { randomToken } from '../lib/secrets.js';
import { deletePasswordResetsOf, findPasswordReset, insertPasswordReset, takePasswordReset } from '../store/password-resets.js';
import type { Realm } from '../store/realms.js';
import { deleteSessionsOf } from '../store/sessions.js';
import { emailKey, findUser, findUserForLogin, updateUser, type User } from '../store/users.js';
import { checkPassword } from './checks.js';
import { queueTemplateMail } from './mail.js';
import { inTransaction } from './transaction.js';

export const PASSWORD_RESET_MINUTES = 60;
// Requests per hour: from one IP address (beyond it the page says to wait), and about one address (beyond it no
// mail is sent, and the answer is the same, so that nobody can flood a mailbox or learn anything from it).
export const RESETS_PER_IP_PER_HOUR = 20;
export const RESETS_PER_ADDRESS_PER_HOUR = 3;

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const wellFormed = (token: string) => /^[A-Za-z0-9]{32}$/.test(token);

export class ResetLinkError extends ApiError {
  constructor() {
    super('This password reset link is invalid, has expired or has already been used.', 'BAD_REQUEST', 404);
  }
}

export async function doRequestPasswordReset(app: App, realm: Realm, email: string, ip: string): Promise<void> {
  const byIp = await app.limiter.hit(`pwreset:ip:${ip}`, RESETS_PER_IP_PER_HOUR, 3600);
  if (!byIp.allowed) throw new RateLimitedError(Math.ceil(byIp.retryAfter), 'Too many password reset requests from this address; try again later.');
  const address = email.trim();
  if (!address || address.length > 254) return;
  const byAddress = await app.limiter.hit(`pwreset:email:${realm.id}:${emailKey(address)}`, RESETS_PER_ADDRESS_PER_HOUR, 3600);
  if (!byAddress.allowed) {
    app.log.info({ realm_id: realm.id }, 'too many password reset requests for one address; no mail sent');
    return;
  }
  const user = await findUserForLogin(app.db, realm.id, address, realmFakeEmailDomain(app, realm));
  if (!user || !user.isActive || user.isBot || realm.deactivated || !realm.passwordAuthEnabled) return;
  const token = randomToken(32);
  const now = nowSeconds();
  // Not awaited: the answer comes as fast for an account as for an unknown address, so its timing tells nothing.
  void inTransaction(app, async (tx) => {
    await insertPasswordReset(tx, { tokenHash: tokenHash(token), userId: user.id, created: now, expires: now + PASSWORD_RESET_MINUTES * 60 });
    await queueTemplateMail(app, tx, realm, user.deliveryEmail, passwordResetMail({ realmName: realm.name, email: user.deliveryEmail, token, validMinutes: PASSWORD_RESET_MINUTES }));
  }).catch((err) => app.log.error({ err, user_id: user.id }, 'password reset link not recorded'));
}

// The account a reset link is for, while the link is good.
export async function accessPasswordReset(app: App, realm: Realm, token: string): Promise<User> {
  const found = wellFormed(token) ? await findPasswordReset(app.db, tokenHash(token), nowSeconds()) : undefined;
  const user = found && (await findUser(app.db, realm.id, found.userId));
  if (!user || !user.isActive || realm.deactivated) throw new ResetLinkError();
  return user;
}

export async function doResetPassword(app: App, realm: Realm, token: string, password: string): Promise<User> {
  const user = await accessPasswordReset(app, realm, token);
  checkPassword(password);
  const passwordHash = await app.passwords.hash(password);
  await inTransaction(app, async (tx) => {
    const now = nowSeconds();
    if ((await takePasswordReset(tx, tokenHash(token), now)) !== user.id) throw new ResetLinkError();
    await updateUser(tx, user.id, { passwordHash });
    await deletePasswordResetsOf(tx, user.id, now);
    await deleteSessionsOf(tx, [user.id]);
  });
  return user;
}
