import type { Insertable } from 'kysely';
import type { Db } from './db.js';
import type { UserTable } from './schema.js';
import { cached, cacheMap } from './cache.js';
import { dialectOf } from './search.js';
import { addressKey, type SystemBotRole } from '../lib/identity.js';
import { findUsers } from './user-list.js';
import { toUser, USER_COLUMNS, type Role, type User } from './user-rows.js';

export { ROLE, ROLES, type Role, type RoleName, type User } from './user-rows.js';
export { findUsers, listParts, listUsers, USER_RANGE } from './user-list.js';

export const emailKey = (email: string) => email.trim().toLowerCase();

export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  role: Role;
  isBot: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  passwordHash: string | null;
  apiKey: string;
  now: number;
  settings?: Record<string, unknown>;
  systemBot?: SystemBotRole;
}

export async function insertUser(db: Db, u: NewUser): Promise<User> {
  const values: Insertable<UserTable> = {
    realm_id: u.realmId,
    email: u.email,
    delivery_email: u.email,
    email_key: emailKey(u.email),
    identity_key: addressKey(u.email),
    system_bot: u.systemBot ?? null,
    // Default avatars are drawn by the server (source J, feature level 466), never an outside service's.
    avatar_source: 'J',
    full_name: u.fullName,
    role: u.role,
    is_bot: u.isBot ? 1 : 0,
    bot_type: u.botType ?? null,
    bot_owner_id: u.botOwnerId ?? null,
    password_hash: u.passwordHash,
    api_key: u.apiKey,
    date_joined: u.now,
    ...(u.settings ? { settings: JSON.stringify(u.settings) } : {}),
  };
  return toUser(await db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow());
}

// Every request authenticates by e-mail and API key: users are cached (src/store/cache.ts), by e-mail and by id.
const usersByEmail = cacheMap<string, User | null>('users');
const usersById = cacheMap<string, User | null>('users');
const usersByApiKey = cacheMap<string, User | null>('users');

// The user a placeholder address `user<id>@…` names, if it is one: one at the organization's placeholder domain
// (`placeholderDomain`) names user <id> and nobody else; one at another domain names user <id> only while it is
// their API e-mail (stored under an earlier domain). `null`: a placeholder naming nobody; undefined: not one.
async function placeholderUser(db: Db, realmId: number, email: string, placeholderDomain: string): Promise<User | null | undefined> {
  const key = emailKey(email);
  const m = FAKE_EMAIL.exec(key);
  if (!m) return undefined;
  const named = (await findUser(db, realmId, Number(m[1]))) ?? null;
  if (m[2] === placeholderDomain.toLowerCase()) return named;
  return named && emailKey(named.email) === key ? named : undefined;
}

// A user by e-mail: a placeholder address resolves only to the user it names; any other address is a delivery
// e-mail, compared without regard to case.
export async function findUserByEmail(db: Db, realmId: number, email: string, placeholderDomain: string): Promise<User | undefined> {
  const named = await placeholderUser(db, realmId, email, placeholderDomain);
  if (named !== undefined) return named ?? undefined;
  const key = emailKey(email);
  const user = await cached(db, usersByEmail, `${realmId} ${key}`, async () => {
    const row = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('email_key', '=', key).executeTakeFirst();
    return row ? toUser(row) : null;
  });
  return user ?? undefined;
}

const FAKE_EMAIL = /^user(\d{1,10})@(.*)$/;

// The user who logs in with this name: by their API e-mail or their real address only (a placeholder address
// names a user who shows their real one, but is not theirs to log in with).
export async function findUserForLogin(db: Db, realmId: number, username: string, placeholderDomain: string): Promise<User | undefined> {
  const user = await findUserByEmail(db, realmId, username, placeholderDomain);
  const key = emailKey(username);
  return user && (emailKey(user.email) === key || emailKey(user.deliveryEmail) === key) ? user : undefined;
}

// The user holding an API key (keys are unique across organizations), for incoming webhooks that name only
// their key.
export async function findUserByApiKey(db: Db, realmId: number, apiKey: string): Promise<User | undefined> {
  if (!apiKey || apiKey.length > 64 || apiKey.includes('\u0000')) return undefined;
  const user = await cached(db, usersByApiKey, `${realmId} ${apiKey}`, async () => {
    const row = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('api_key', '=', apiKey).executeTakeFirst();
    return row ? toUser(row) : null;
  });
  return user ?? undefined;
}

// Ids are 32-bit integer columns; PostgreSQL refuses to compare them with anything larger.
const MAX_ID = 2 ** 31 - 1;
export const isStoredId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;

export async function findUser(db: Db, realmId: number, id: number): Promise<User | undefined> {
  if (!isStoredId(id)) return undefined;
  const user = await cached(db, usersById, `${realmId} ${id}`, async () => {
    const row = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  });
  return user ?? undefined;
}

// The rows as they are now, for a read-modify-write of their settings JSON inside a transaction: on PostgreSQL
// they stay locked until it ends (in id order, so two such transactions cannot deadlock); SQLite's writers are
// serialised already. Without it, two concurrent changes of one user's settings keep only the later one.
export async function lockUsers(db: Db, realmId: number, ids: number[]): Promise<User[]> {
  if (dialectOf(db) === 'sqlite') return findUsers(db, realmId, ids);
  const out: User[] = [];
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i += 500) {
    const rows = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('id', 'in', sorted.slice(i, i + 500)).orderBy('id').forUpdate().execute();
    out.push(...rows.map(toUser));
  }
  return out;
}

// Users by e-mail, as findUserByEmail finds each, in one query per 500 of each kind.
export async function findUsersByEmails(db: Db, realmId: number, emails: string[], placeholderDomain: string): Promise<User[]> {
  const keys = [...new Set(emails.map(emailKey))];
  const domain = placeholderDomain.toLowerCase();
  const fakes = keys.flatMap((k) => {
    const m = FAKE_EMAIL.exec(k);
    return m ? [{ key: k, id: Number(m[1]), home: m[2] === domain }] : [];
  });
  const named = new Map((await findUsers(db, realmId, fakes.map((f) => f.id))).map((u) => [u.id, u]));
  const out: User[] = [];
  const resolved = new Set<string>();
  for (const f of fakes) {
    const u = named.get(f.id);
    if (!f.home && !(u && emailKey(u.email) === f.key)) continue;
    resolved.add(f.key);
    if (u) out.push(u);
  }
  const rest = keys.filter((k) => !resolved.has(k));
  for (let i = 0; i < rest.length; i += 500) {
    const rows = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('email_key', 'in', rest.slice(i, i + 500)).execute();
    out.push(...rows.map(toUser));
  }
  return [...new Map(out.map((u) => [u.id, u])).values()];
}

// Every user whose address reads the same as this key (src/lib/identity.ts).
export async function findUsersByIdentityKey(db: Db, realmId: number, key: string): Promise<User[]> {
  const rows = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('identity_key', '=', key).execute();
  return rows.map(toUser);
}

export async function findSystemBot(db: Db, realmId: number, role: SystemBotRole): Promise<User | undefined> {
  const row = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('system_bot', '=', role).executeTakeFirst();
  return row ? toUser(row) : undefined;
}

export async function updateUser(
  db: Db,
  id: number,
  changes: Partial<{
    fullName: string;
    email: string; // the delivery e-mail; also the API e-mail unless `apiEmail` is given
    apiEmail: string;
    passwordHash: string;
    timezone: string;
    settings: Record<string, unknown>;
    role: number;
    isActive: boolean;
    apiKey: string;
    botOwnerId: number;
  }>,
): Promise<void> {
  const v: Record<string, string | number> = {};
  if (changes.fullName !== undefined) v.full_name = changes.fullName;
  if (changes.email !== undefined) {
    Object.assign(v, { email: changes.email, delivery_email: changes.email, email_key: emailKey(changes.email), identity_key: addressKey(changes.email) });
  }
  if (changes.apiEmail !== undefined) v.email = changes.apiEmail;
  if (changes.apiKey !== undefined) v.api_key = changes.apiKey;
  if (changes.botOwnerId !== undefined) v.bot_owner_id = changes.botOwnerId;
  if (changes.passwordHash !== undefined) v.password_hash = changes.passwordHash;
  if (changes.timezone !== undefined) v.timezone = changes.timezone;
  if (changes.settings !== undefined) v.settings = JSON.stringify(changes.settings);
  if (changes.role !== undefined) v.role = changes.role;
  if (changes.isActive !== undefined) v.is_active = changes.isActive ? 1 : 0;
  if (Object.keys(v).length) await db.updateTable('users').set(v).where('id', '=', id).execute();
}
