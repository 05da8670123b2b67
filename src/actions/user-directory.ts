// GET /users, /users/{id}, /users/me: user objects as the viewer may see them (shaped by state/user-objects.ts).
import type { App } from '../app.js';
import type { Realm } from '../store/realms.js';
import { maxMessageId } from '../store/messages.js';
import { listUsers, type User } from '../store/users.js';
import { accessUser } from './users.js';
import { type DirectoryOptions, userObjects } from '../state/user-objects.js';

// GET /users/me: the caller in full, with the deprecated max_message_id the reference server still sends.
// Read through the read pool: on SQLite the serving connection may be held by a long write (a move in batches),
// which a client's most frequent check of itself need not wait for.
export async function accessOwnUser(app: App, realm: Realm, user: User): Promise<Record<string, unknown>> {
  const [me] = await userObjects(app, app.reads, realm, user, [user], { clientGravatar: false, includeCustomProfileFields: true });
  if (!user.isBot) delete me.bot_type;
  return { ...me, max_message_id: await maxMessageId(app.reads, user.id) };
}

// The server's own bots are not the organization's users (the reference keeps them in a realm of their own).
export async function accessUserDirectory(app: App, realm: Realm, viewer: User, opts: DirectoryOptions): Promise<Record<string, unknown>[]> {
  return userObjects(app, app.db, realm, viewer, (await listUsers(app.db, realm.id)).filter((u) => !u.systemBot), opts);
}

export async function accessUserObject(app: App, realm: Realm, viewer: User, key: { id?: number; email?: string }, opts: DirectoryOptions) {
  const [user] = await userObjects(app, app.db, realm, viewer, [await accessUser(app, realm, viewer, key)], opts);
  return user;
}
