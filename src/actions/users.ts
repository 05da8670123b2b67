import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../http/errors.js';
import { randomToken } from '../lib/secrets.js';
import type { Tx } from '../store/db.js';
import { syncRoleGroups } from '../store/groups.js';
import { findRealm, type Realm } from '../store/realms.js';
import { isFullMember } from './full-members.js';
import { isUniqueViolation } from '../store/tx.js';
import { inTransaction, type Emit } from './transaction.js';
import { findUser, findUserByEmail, insertUser, listUsers, ROLE, type Role, type User } from '../store/users.js';
import { checkEmail, checkFullName, checkPassword } from './checks.js';
import { formatUser } from '../format/users.js';

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

// Validates and hashes outside the transaction; the insert and the role groups commit together.
export async function prepareUser(app: App, input: CreateUserInput) {
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  const passwordHash = input.password === null ? null : await app.passwords.hash(checkPassword(input.password));
  return { ...input, email, fullName, passwordHash };
}

export async function insertUserInTx(
  tx: Tx,
  emit: Emit,
  realmId: number,
  u: Awaited<ReturnType<typeof prepareUser>>,
): Promise<User> {
  if (await findUserByEmail(tx, realmId, u.email)) throw new ApiError(`Email '${u.email}' already in use`);
  try {
    const user = await insertUser(tx, {
      realmId,
      email: u.email,
      fullName: u.fullName,
      role: u.role,
      isBot: u.isBot ?? false,
      botType: u.isBot ? (u.botType ?? 1) : null,
      botOwnerId: u.botOwnerId ?? null,
      passwordHash: u.passwordHash,
      apiKey: randomToken(32),
      now: nowSeconds(),
    });
    await syncRoleGroups(tx, realmId, user.id, user.role, isFullMember((await findRealm(tx, realmId))!, user, user.dateJoined));
    // Every user may see every other user until guests' restricted access arrives with the permission model.
    emit(realmId, { type: 'realm_user', op: 'add', person: formatUser(user, { clientGravatar: false, includeCustomProfileFields: true }) }, null);
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(`Email '${u.email}' already in use`);
    throw err;
  }
}

export async function doCreateUser(app: App, realm: Realm, input: CreateUserInput): Promise<User> {
  const prepared = await prepareUser(app, input);
  return inTransaction(app, (tx, emit) => insertUserInTx(tx, emit, realm.id, prepared));
}

// Every user of the organization is visible to every member for now; guests' restricted access to other
// users arrives with the permission settings.
export async function accessUser(app: App, realm: Realm, key: { id?: number; email?: string }): Promise<User> {
  const user =
    key.id !== undefined ? await findUser(app.db, realm.id, key.id) : await findUserByEmail(app.db, realm.id, key.email!);
  if (!user) throw new ApiError('No such user');
  return user;
}

export async function accessAllUsers(app: App, realm: Realm): Promise<User[]> {
  return listUsers(app.db, realm.id);
}
