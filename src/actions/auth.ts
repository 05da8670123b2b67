import type { App } from '../app.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { ApiError, AuthenticationFailedError, RateLimitedError } from '../http/errors.js';
import type { Realm } from '../store/realms.js';
import { emailKey, findUserForLogin, type User } from '../store/users.js';

// Exchanges an e-mail and password for the API key. An unknown user and a wrong password fail alike and in
// similar time; repeated failures for one user name are refused for a while.
export async function accessUserByPassword(app: App, realm: Realm, username: string, password: string): Promise<User> {
  if (!realm.passwordAuthEnabled) {
    throw new ApiError('Password authentication is disabled in this organization', 'PASSWORD_AUTH_DISABLED', 401);
  }
  const { authFailuresPerWindow: max, authFailureWindowSeconds: window } = app.config;
  const bucket = `auth:${realm.id}:${emailKey(username)}`;
  if (max > 0) {
    const v = await app.limiter.hit(bucket, max, window);
    if (!v.allowed) throw new RateLimitedError(Math.round(v.retryAfter));
  }
  const user = await findUserForLogin(app.db, realm.id, username, realmFakeEmailDomain(app, realm));
  const ok = await app.passwords.verify(user && !user.isBot ? user.passwordHash : null, password);
  if (!user || !ok) throw new AuthenticationFailedError();
  if (max > 0) await app.limiter.refund(bucket);
  if (!user.isActive) throw new AuthenticationFailedError('USER_DEACTIVATED', 'Account is deactivated');
  if (realm.deactivated) {
    throw new AuthenticationFailedError('REALM_DEACTIVATED', 'This organization has been deactivated');
  }
  return user;
}
