// Browser sessions of the web app: a login (e-mail and password, with the same failure limit as fetch_api_key)
// opens one; each request under /json/ finds its user through it. A session ends when it is not used for
// `sessionDays`, on logout (of this browser, or everywhere), when its user changes their password (their other sessions) or is deactivated, and
// with its organization.
import { nowSeconds, type App } from '../app.js';
import { randomToken } from '../lib/secrets.js';
import type { Realm } from '../store/realms.js';
import { deleteExpiredSessions, deleteSession, deleteSessionsOf, extendSession, findSession, insertSession, sessionTokenHash, type Session } from '../store/sessions.js';
import { findUser, type User } from '../store/users.js';
import { newLoginMail } from '../format/mails.js';
import { userSetting } from '../state/user-settings.js';
import { accessUserByPassword } from './auth.js';
import { queueTemplateMail } from './mail.js';
import { inTransaction } from './transaction.js';

const DAY = 86_400;
const lifetime = (app: App) => Math.max(1, app.config.sessionDays) * DAY;

export interface OpenedSession {
  token: string; // the cookie's value; only its hash is stored
  session: Session;
  user: User;
  maxAgeSeconds: number;
}

// Where a login came from, for the new-login mail.
export interface LoginOrigin {
  ip: string;
  userAgent: string;
}

export async function doLogin(app: App, realm: Realm, username: string, password: string, origin: LoginOrigin): Promise<OpenedSession> {
  const user = await accessUserByPassword(app, realm, username, password);
  const opened = await doOpenSession(app, realm, user);
  // The reference's new-login mail, which the user may turn off (enable_login_emails).
  if (userSetting(user, 'enable_login_emails')) {
    const mail = newLoginMail({ realmName: realm.name, email: user.deliveryEmail, time: opened.session.created, ip: origin.ip, userAgent: origin.userAgent.slice(0, 300) });
    await inTransaction(app, (tx) => queueTemplateMail(app, tx, realm, user.deliveryEmail, mail));
  }
  return opened;
}

// Also for a newcomer who has just joined through an invitation link.
export async function doOpenSession(app: App, realm: Realm, user: User): Promise<OpenedSession> {
  const now = nowSeconds();
  // Expired sessions go here rather than in a worker: logins are rare, and the index makes this one cheap step.
  await deleteExpiredSessions(app.db, now);
  const token = randomToken(40);
  const session: Session = {
    tokenHash: sessionTokenHash(token),
    userId: user.id,
    realmId: realm.id,
    csrfToken: randomToken(32),
    created: now,
    expires: now + lifetime(app),
  };
  await insertSession(app.db, session);
  return { token, session, user, maxAgeSeconds: lifetime(app) };
}

// The session a cookie names, and its user, if both are still good in this organization. A session in use is
// extended at most once a day, so that requests do not each write.
export async function accessSession(app: App, realm: Realm, token: string): Promise<{ session: Session; user: User } | null> {
  if (!/^[A-Za-z0-9]{40}$/.test(token)) return null;
  const session = await findSession(app.db, sessionTokenHash(token));
  const now = nowSeconds();
  if (!session || session.realmId !== realm.id || session.expires <= now) return null;
  const user = await findUser(app.db, realm.id, session.userId);
  if (!user || !user.isActive || user.isBot || realm.deactivated) return null;
  if (session.expires - now < lifetime(app) - DAY) {
    session.expires = now + lifetime(app);
    await extendSession(app.db, session.tokenHash, session.expires);
  }
  return { session, user };
}

export async function doLogout(app: App, session: Session): Promise<void> {
  await deleteSession(app.db, session.tokenHash);
}

// "Log out everywhere": every browser session of the user, this one included (API keys are not sessions).
export async function doLogoutEverywhere(app: App, session: Session): Promise<void> {
  await deleteSessionsOf(app.db, [session.userId]);
}
