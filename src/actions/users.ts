import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { fakeEmailDomain } from '../format/users.js';
import { ApiError } from '../http/errors.js';
import { randomToken } from '../lib/secrets.js';
import { accessibleBy, accessibleUserIds, canAccessUser, EMAIL_VISIBILITY, seesDeliveryEmail, emailVisibility } from '../permissions/users.js';
import type { Db, Tx } from '../store/db.js';
import { syncRoleGroups, systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { isFullMember } from './full-members.js';
import { isUniqueViolation } from '../store/tx.js';
import { findUserDefaults } from '../store/user-defaults.js';
import { emailKey, findUser, findUserByEmail, insertUser, ROLE, updateUser, type Role, type User } from '../store/users.js';
import { checkEmail, checkFullName, checkPassword } from './checks.js';
import { checkEmailAllowed } from './realm-domains.js';
import { inTransaction, type Emit } from './transaction.js';
import { apiEmailFor, emitUserAdded } from './user-events.js';

export interface CreateUserInput {
  email: string;
  fullName: string;
  password: string | null;
  role: Role;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
}

export class OrganizationAdministratorRequired extends ApiError {
  constructor() {
    super('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL', 400);
  }
}

export function checkAdministrator(user: User): void {
  if (user.role > ROLE.administrator) throw new OrganizationAdministratorRequired();
}

export class OrganizationOwnerRequired extends ApiError {
  constructor() {
    super('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL', 400);
  }
}

export function checkOwner(user: User): void {
  if (user.role !== ROLE.owner) throw new OrganizationOwnerRequired();
}

export const realmFakeEmailDomain = (app: App, realm: Realm) => fakeEmailDomain(app.config.externalUrl, realm.stringId);

// Validates and hashes outside the transaction; the insert and the role groups commit together.
export async function prepareUser(app: App, input: CreateUserInput) {
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  const passwordHash = input.password === null ? null : await app.passwords.hash(checkPassword(input.password));
  return { ...input, email, fullName, passwordHash };
}

// Every way users come to be ends here: the organization's e-mail domains admit the address (bots excepted),
// the user starts with the organization's default settings, and an address hidden from others by those
// defaults gets a stand-in API e-mail (`fakeDomain` is only needed then).
export async function insertUserInTx(
  tx: Tx,
  emit: Emit,
  realm: Realm,
  u: Awaited<ReturnType<typeof prepareUser>>,
  fakeDomain = fakeEmailDomain(undefined, realm.stringId),
): Promise<User> {
  if (await findUserByEmail(tx, realm.id, u.email)) throw new ApiError(`Email '${u.email}' already in use`);
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
    await emitUserAdded(tx, emit, realm, user, fakeDomain);
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

// A user another user names, by id or API e-mail; a real address that its owner hides from the viewer finds
// nobody. `accessible` is false for a user a guest limited by can_access_all_users_group may not access.
export async function lookUpUser(app: App, realm: Realm, viewer: User, key: { id?: number; email?: string }): Promise<{ user: User; accessible: boolean } | undefined> {
  const user =
    key.id !== undefined ? await findUser(app.db, realm.id, key.id) : await findUserByEmail(app.db, realm.id, key.email!);
  if (!user) return undefined;
  if (key.email !== undefined && emailKey(user.email) !== emailKey(key.email) && !seesDeliveryEmail(viewer, user.id, emailVisibility(user))) {
    return undefined;
  }
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
