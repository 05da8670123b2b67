// User objects as one viewer may see them: the real e-mail where its owner lets the viewer see it, profile
// data, and for guests limited by can_access_all_users_group, "Unknown user" placeholders (or nothing, with
// the user_list_incomplete capability) for the users they may not access. The realm_users register block and
// the user directory (GET /users) both show users through this.
import type { App } from '../app.js';
import { Pacer } from '../lib/pace.js';
import { AVATAR_NAME, formatUser, inaccessibleUser, realmFakeEmailDomain, type UserFormatOptions } from '../format/users.js';
import { accessibleUserIds, canAccessUser, emailVisibility, seesDeliveryEmail } from '../permissions/users.js';
import type { Db } from '../store/db.js';
import { processMemory } from '../store/cache.js';
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
  const out: Record<string, unknown>[] = [];
  await eachShown(app, db, realm, viewer, users, opts, (u, shown) => out.push(shown.placeholder ?? formatUser(u, shown.format!)));
  return out;
}

// The same as JSON texts, with whether each is of an active user: kept per user and shape of answer, so that a
// register in an organization of 50,000 formats and serialises only the users that changed since the last one.
export async function userObjectTexts(app: App, db: Db, realm: Realm, viewer: User, users: User[], opts: DirectoryOptions): Promise<{ active: boolean; text: string }[]> {
  const out: { active: boolean; text: string }[] = [];
  const kept = keptTexts(db, realm.id);
  await eachShown(app, db, realm, viewer, users, opts, (u, shown) => {
    if (shown.placeholder) out.push({ active: shown.placeholder.is_active === true, text: JSON.stringify(shown.placeholder) });
    else out.push({ active: u.isActive, text: textOf(kept, u, shown.format!) });
  });
  return out;
}

type Shown = { placeholder?: Record<string, unknown>; format?: UserFormatOptions };

// How each user is shown to the viewer (skipped: not at all).
async function eachShown(app: App, db: Db, realm: Realm, viewer: User, users: User[], opts: DirectoryOptions, emit: (u: User, shown: Shown) => void): Promise<void> {
  const accessible = await accessibleUserIds(db, realm, await systemGroupIds(db, realm.id), viewer);
  // One query for the whole organization when listing many users; just theirs otherwise.
  const profiles = opts.includeCustomProfileFields ? await profileValues(db, realm.id, users.length > 100 ? null : users.map((u) => u.id)) : null;
  const pacer = new Pacer();
  for (const u of users) {
    if (pacer.due()) await pacer.pause();
    if (!canAccessUser(accessible, u)) {
      if (!opts.userListIncomplete) emit(u, { placeholder: inaccessibleUser(u.id, realmFakeEmailDomain(app, realm), !!profiles) });
      continue;
    }
    emit(u, {
      format: {
        clientGravatar: opts.clientGravatar,
        seesEmail: seesDeliveryEmail(viewer, u.id, emailVisibility(u)),
        profileData: profiles ? (profiles.get(u.id) ?? {}) : undefined,
        avatarOptional: opts.avatarOptional,
      },
    });
  }
}

// Per organization and user, the texts made for each shape of answer, with the row each was made from, kept in
// the serving process's memory (none elsewhere). A text is used again only when the row it came from is the same
// field for field and the user has no profile data (which lives in rows of its own); otherwise it is made again.
// Frozen cached rows are the same object while unchanged.
type Kept = Map<number, Map<number, { row: User; text: string }>>;
const KEPT_TEXTS = {};

function keptTexts(db: Db, realmId: number): Kept {
  const realms = processMemory(db, KEPT_TEXTS, () => new Map<number, Kept>()) ?? new Map<number, Kept>();
  let k = realms.get(realmId);
  if (!k) realms.set(realmId, (k = new Map()));
  return k;
}

function textOf(k: Kept, u: User, format: UserFormatOptions): string {
  const profile = format.profileData;
  if (profile && Object.keys(profile).length) return JSON.stringify(formatUser(u, format));
  const shape = (format.seesEmail ? 1 : 0) | (format.avatarOptional ? 2 : 0) | (profile ? 4 : 0) | (format.clientGravatar ? 8 : 0);
  let shapes = k.get(u.id);
  if (!shapes) k.set(u.id, (shapes = new Map()));
  const hit = shapes.get(shape);
  if (hit && sameRow(hit.row, u)) return hit.text;
  const text = JSON.stringify(formatUser(u, format));
  shapes.set(shape, { row: u, text });
  return text;
}

// Every field a user object is made from (settings: the uploaded avatar's name).
function sameRow(a: User, b: User): boolean {
  return a === b || (a.email === b.email && a.deliveryEmail === b.deliveryEmail && a.fullName === b.fullName && a.dateJoined === b.dateJoined &&
    a.isActive === b.isActive && a.role === b.role && a.isBot === b.isBot && a.botType === b.botType && a.botOwnerId === b.botOwnerId &&
    a.timezone === b.timezone && a.avatarSource === b.avatarSource && a.avatarVersion === b.avatarVersion && a.realmId === b.realmId &&
    a.settings[AVATAR_NAME] === b.settings[AVATAR_NAME]);
}
