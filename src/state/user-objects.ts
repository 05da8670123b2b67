// User objects as one viewer may see them: the real e-mail where its owner lets the viewer see it, profile
// data, and for guests limited by can_access_all_users_group, "Unknown user" placeholders (or nothing, with
// the user_list_incomplete capability) for the users they may not access. The realm_users register block and
// the user directory (GET /users) both show users through this.
import type { App } from '../app.js';
import { Pacer } from '../lib/pace.js';
import { formatUser, inaccessibleUser, realmFakeEmailDomain } from '../format/users.js';
import { accessibleUserIds, canAccessUser, emailVisibility, seesDeliveryEmail } from '../permissions/users.js';
import type { Db } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { profileValues } from '../store/profile-fields.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';

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
