import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { fakeEmailDomain, realmFakeEmailDomain } from '../format/users.js';
import { ApiError } from '../lib/errors.js';
import { randomToken } from '../lib/secrets.js';
import { accessibleBy, accessibleUserIds, canAccessUser, EMAIL_VISIBILITY, seesDeliveryEmail, emailVisibility, type Looker } from '../permissions/users.js';
import type { SystemBotRole } from '../lib/identity.js';
import type { Db, Tx } from '../store/db.js';
import { syncRoleGroups, systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { isFullMember } from './full-members.js';
import { isUniqueViolation } from '../store/tx.js';
import { findUserDefaults } from '../store/user-defaults.js';
import { emailKey, findUser, findUserByEmail, insertUser, updateUser, type Role, type User } from '../store/users.js';
import { checkEmail, checkFullName, checkPassword } from './checks.js';
import { checkEmailAllowed } from './realm-domains.js';
import { checkAddressAvailable, lockIdentities } from './identity.js';
import { inTransaction, type Emit } from './transaction.js';
import { apiEmailFor, emitUserAdded } from './user-events.js';

// Roles, for callers that create users with one.
export { ROLE } from '../store/users.js';

export interface CreateUserInput {
  email: string;
  fullName: string;
  password: string | null;
  role: Role;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  systemBot?: SystemBotRole; // set only by src/actions/system-bots.ts
}

// The role checks live in checks.ts (realm-domains.ts needs them, and this file needs realm-domains.ts).
export { checkAdministrator, checkOwner, OrganizationAdministratorRequired, OrganizationOwnerRequired } from './checks.js';

export { realmFakeEmailDomain };

// Validates and hashes outside the transaction; the insert and the role groups commit together.
export async function prepareUser(app: App, input: CreateUserInput) {
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  const passwordHash = input.password === null ? null : await app.passwords.hash(checkPassword(input.password));
  return { ...input, email, fullName, passwordHash };
}

// Every way users come to be ends here: the address collides with no other identity (src/actions/identity.ts),
// the organization's e-mail domains admit it (bots excepted), the user starts with the organization's default
// settings, and an address hidden from others by those defaults gets a stand-in API e-mail at `fakeDomain`.
export async function insertUserInTx(
  tx: Tx,
  emit: Emit,
  realm: Realm,
  u: Awaited<ReturnType<typeof prepareUser>>,
  fakeDomain = fakeEmailDomain(undefined, realm.stringId),
): Promise<User> {
  await lockIdentities(tx, realm);
  await checkAddressAvailable(tx, realm, u.email, { placeholderDomain: fakeDomain, systemBot: u.systemBot });
  if (!u.isBot) await checkEmailAllowed(tx, realm, u.email);
  try {
    let user = await insertUser(tx, {
      realmId: realm.id,
      email: u.email,
      fullName: u.fullName,
      role: u.role,
      isBot: u.isBot ?? false,
      botType: u.isBot ? (u.botType ?? 1) : null,
      botOwnerId: u.botOwnerId ?? null,
      systemBot: u.systemBot,
      passwordHash: u.passwordHash,
      apiKey: randomToken(32),
      now: nowSeconds(),
      settings: await findUserDefaults(tx, realm.id),
    });
    const visibility = emailVisibility(user);
    if (visibility !== EMAIL_VISIBILITY.everyone) {
      user = { ...user, email: apiEmailFor(user, visibility, fakeDomain) };
      await updateUser(tx, user.id, { apiEmail: user.email });
    }
    await syncRoleGroups(tx, realm.id, user.id, user.role, isFullMember(realm, user, user.dateJoined));
    // The server's own bots are no user of the organization to its clients (register lists them apart).
    if (!u.systemBot) await emitUserAdded(tx, emit, realm, user, fakeDomain);
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(`Email '${u.email}' already in use`);
    throw err;
  }
}

export async function doCreateUser(app: App, realm: Realm, input: CreateUserInput): Promise<User> {
  const prepared = await prepareUser(app, input);
  return inTransaction(app, (tx, emit) => insertUserInTx(tx, emit, realm, prepared, realmFakeEmailDomain(app, realm)));
}

// A user someone names by e-mail: by their API e-mail (a placeholder address names only its user), or by their
// real address where its owner lets `viewer` see it. A real address hidden from the viewer finds nobody, exactly
// like an address nobody has: every parameter and narrow operand that takes an e-mail resolves through here.
export async function userByEmailFor(db: Db, realm: Realm, placeholderDomain: string, viewer: Looker, email: string): Promise<User | undefined> {
  const user = await findUserByEmail(db, realm.id, email, placeholderDomain);
  if (!user) return undefined;
  if (emailKey(user.email) !== emailKey(email) && !seesDeliveryEmail(viewer, user.id, emailVisibility(user))) return undefined;
  return user;
}

// A user another user names, by id or e-mail (as userByEmailFor). `accessible` is false for a user a guest
// limited by can_access_all_users_group may not access.
export async function lookUpUser(app: App, realm: Realm, viewer: User, key: { id?: number; email?: string }): Promise<{ user: User; accessible: boolean } | undefined> {
  const user =
    key.id !== undefined ? await findUser(app.db, realm.id, key.id) : await userByEmailFor(app.db, realm, realmFakeEmailDomain(app, realm), viewer, key.email!);
  if (!user) return undefined;
  const accessible = await accessibleUserIds(app.db, realm, await systemGroupIds(app.db, realm.id), viewer);
  return { user, accessible: canAccessUser(accessible, user) };
}

// Reading another user needs access to them, as the reference's access_user_by_id (for_admin=False) checks.
export async function checkUserAccessible(db: Db, realm: Realm, viewer: User, target: User): Promise<void> {
  if (!canAccessUser(await accessibleBy(db, realm, viewer), target)) throw new ApiError('Insufficient permission');
}

export async function accessUser(app: App, realm: Realm, viewer: User, key: { id?: number; email?: string }): Promise<User> {
  const found = await lookUpUser(app, realm, viewer, key);
  if (!found) throw new ApiError('No such user');
  if (!found.accessible) throw new ApiError('Insufficient permission');
  return found.user;
}

// Direct messages and typing notifications go only to users the sender may access, with the reference's error.
export async function checkRecipientsAccessible(db: Db, realm: Realm, sender: User, recipients: User[]): Promise<void> {
  const accessible = await accessibleBy(db, realm, sender);
  if (recipients.some((u) => u.id !== sender.id && !canAccessUser(accessible, u))) {
    throw new ApiError('You do not have permission to access some of the recipients.');
  }
}
