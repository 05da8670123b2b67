// User objects as one viewer may see them: the real e-mail where its owner lets the viewer see it, profile
// data, and for guests limited by can_access_all_users_group, "Unknown user" placeholders (or nothing, with
// the user_list_incomplete capability) for the users they may not access.
import type { App } from '../app.js';
import { Pacer } from '../lib/pace.js';
import { formatUser, inaccessibleUser } from '../format/users.js';
import { accessibleUserIds, canAccessUser, emailVisibility, seesDeliveryEmail } from '../permissions/users.js';
import type { Db } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { profileValues } from '../store/profile-fields.js';
import type { Realm } from '../store/realms.js';
import { maxMessageId } from '../store/messages.js';
import { listUsers, type User } from '../store/users.js';
import { accessUser, realmFakeEmailDomain } from './users.js';

export interface DirectoryOptions {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
  userListIncomplete?: boolean;
  avatarOptional?: boolean;
}

export async function userObjects(app: App, db: Db, realm: Realm, viewer: User, users: User[], opts: DirectoryOptions): Promise<Record<string, unknown>[]> {
  const accessible = await accessibleUserIds(db, realm, await systemGroupIds(db, realm.id), viewer);
  // One query for the whole organization when listing many users; just theirs otherwise.
  const profiles = opts.includeCustomProfileFields ? await profileValues(db, realm.id, users.length > 100 ? null : users.map((u) => u.id)) : null;
  const out: Record<string, unknown>[] = [];
  const pacer = new Pacer();
  for (const u of users) {
    if (pacer.due()) await pacer.pause();
    if (!canAccessUser(accessible, u)) {
      if (!opts.userListIncomplete) out.push(inaccessibleUser(u.id, realmFakeEmailDomain(app, realm), !!profiles));
      continue;
    }
    out.push(
      formatUser(u, {
        clientGravatar: opts.clientGravatar,
        seesEmail: seesDeliveryEmail(viewer, u.id, emailVisibility(u)),
        profileData: profiles ? (profiles.get(u.id) ?? {}) : undefined,
        avatarOptional: opts.avatarOptional,
      }),
    );
  }
  return out;
}

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
