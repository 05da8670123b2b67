import type { App } from '../app.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { ApiError, AuthenticationFailedError, RateLimitedError } from '../lib/errors.js';
import type { Realm } from '../store/realms.js';
import { emailKey, findUserForLogin, type User } from '../store/users.js';

// Every check of a password counts against one counter of failures per account (per user name where no account
// has it), whichever endpoint makes it: guesses through PATCH /settings's old_password and through
// POST /fetch_api_key add up. An attempt takes its place before the password is checked (so concurrent guesses
// cannot exceed the limit) and gives it back when it succeeds. Past the limit even the right password is
// refused until the window ends; `limited` makes the endpoint's error from the seconds left.
export async function verifyPasswordLimited(
  app: App, realm: Realm, user: User | undefined, username: string, password: string, limited: (retryAfterSeconds: number) => ApiError,
): Promise<boolean> {
  const { authFailuresPerWindow: max, authFailureWindowSeconds: window } = app.config;
  const bucket = user ? `auth:${realm.id}:user:${user.id}` : `auth:${realm.id}:name:${emailKey(username)}`;
  if (max > 0) {
    const v = await app.limiter.hit(bucket, max, window);
    if (!v.allowed) throw limited(v.retryAfter);
  }
  const ok = await app.passwords.verify(user && !user.isBot ? user.passwordHash : null, password);
  if (ok && max > 0) await app.limiter.refund(bucket);
  return ok;
}

// Exchanges an e-mail and password for the API key. An unknown user and a wrong password fail alike and in
// similar time; repeated failures are refused for a while (429, as the reference server's login limit).
export async function accessUserByPassword(app: App, realm: Realm, username: string, password: string): Promise<User> {
  if (!realm.passwordAuthEnabled) {
    throw new ApiError('Password authentication is disabled in this organization', 'PASSWORD_AUTH_DISABLED', 401);
  }
  const user = await findUserForLogin(app.db, realm.id, username, realmFakeEmailDomain(app, realm));
  const ok = await verifyPasswordLimited(app, realm, user, username, password, (secs) => new RateLimitedError(Math.round(secs)));
  if (!user || !ok) throw new AuthenticationFailedError();
  if (!user.isActive) throw new AuthenticationFailedError('USER_DEACTIVATED', 'Account is deactivated');
  if (realm.deactivated) {
    throw new AuthenticationFailedError('REALM_DEACTIVATED', 'This organization has been deactivated');
  }
  return user;
}

// PATCH /settings's old_password: the reference server's answer once the account's failures reach the limit.
export const tooManyAttempts = (secs: number) => new ApiError(`You're making too many attempts! Try again in ${Math.floor(secs)} seconds.`);
