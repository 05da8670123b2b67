import type { Insertable, Selectable } from 'kysely';
import type { Db } from './db.js';
import type { UserTable } from './schema.js';
import { cached, cacheMap } from './cache.js';

export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
export type RoleName = keyof typeof ROLE;
export type Role = (typeof ROLE)[RoleName];
export const ROLES: readonly number[] = Object.values(ROLE);

export interface User {
  id: number;
  realmId: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: Role;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  passwordHash: string | null;
  apiKey: string;
  dateJoined: number;
  timezone: string;
  avatarSource: string;
  avatarVersion: number;
  settings: Record<string, unknown>; // personal settings that differ from the defaults
}

function toUser(row: Selectable<UserTable>): User {
  return {
    id: row.id,
    realmId: row.realm_id,
    email: row.email,
    deliveryEmail: row.delivery_email,
    fullName: row.full_name,
    role: row.role as Role,
    isBot: row.is_bot === 1,
    botType: row.bot_type,
    botOwnerId: row.bot_owner_id,
    isActive: row.is_active === 1,
    passwordHash: row.password_hash,
    apiKey: row.api_key,
    dateJoined: row.date_joined,
    timezone: row.timezone,
    avatarSource: row.avatar_source,
    avatarVersion: row.avatar_version,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
  };
}

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
}

export async function insertUser(db: Db, u: NewUser): Promise<User> {
  const values: Insertable<UserTable> = {
    realm_id: u.realmId,
    email: u.email,
    delivery_email: u.email,
    email_key: emailKey(u.email),
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

// A user by e-mail: the delivery e-mail (without regard to case), or the API e-mail `user<id>@…` that stands in
// for it when the user hides their address.
export async function findUserByEmail(db: Db, realmId: number, email: string): Promise<User | undefined> {
  const key = emailKey(email);
  const user = await cached(db, usersByEmail, `${realmId} ${key}`, async () => {
    const row = await db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('email_key', '=', key).executeTakeFirst();
    return row ? toUser(row) : null;
  });
  if (user) return user;
  const id = fakeEmailId(email);
  if (id === undefined) return undefined;
  const byId = await findUser(db, realmId, id);
  return byId && emailKey(byId.email) === key ? byId : undefined;
}

const FAKE_EMAIL = /^user(\d{1,10})@/i;
const fakeEmailId = (email: string) => {
  const m = FAKE_EMAIL.exec(email.trim());
  return m ? Number(m[1]) : undefined;
};

// Ids are 32-bit integer columns; PostgreSQL refuses to compare them with anything larger.
const MAX_ID = 2 ** 31 - 1;
export const isStoredId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;

export async function findUser(db: Db, realmId: number, id: number): Promise<User | undefined> {
  if (!isStoredId(id)) return undefined;
  const user = await cached(db, usersById, `${realmId} ${id}`, async () => {
    const row = await db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  });
  return user ?? undefined;
}

const usersByRealm = cacheMap<number, User[]>('users');

export async function listUsers(db: Db, realmId: number): Promise<User[]> {
  return cached(db, usersByRealm, realmId, async () => {
    const rows = await db.selectFrom('users').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
    return rows.map(toUser);
  });
}

export async function findUsers(db: Db, realmId: number, ids: number[]): Promise<User[]> {
  const out: User[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('id', 'in', ids.slice(i, i + 500)).execute();
    out.push(...rows.map(toUser));
  }
  return out;
}

export async function findUsersByEmails(db: Db, realmId: number, emails: string[]): Promise<User[]> {
  const out: User[] = [];
  const keys = emails.map(emailKey);
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('email_key', 'in', keys.slice(i, i + 500)).execute();
    out.push(...rows.map(toUser));
  }
  const found = new Set(out.map((u) => emailKey(u.deliveryEmail)));
  const fakes = keys.filter((k) => !found.has(k) && fakeEmailId(k) !== undefined);
  if (fakes.length) {
    const byId = await findUsers(db, realmId, fakes.map((k) => fakeEmailId(k)!));
    const wanted = new Set(fakes);
    const have = new Set(out.map((o) => o.id));
    for (const u of byId) if (wanted.has(emailKey(u.email)) && !have.has(u.id)) out.push(u);
  }
  return out;
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
  if (changes.email !== undefined) Object.assign(v, { email: changes.email, delivery_email: changes.email, email_key: emailKey(changes.email) });
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

export async function insertEmailChange(db: Db, key: string, userId: number, newEmail: string, now: number): Promise<void> {
  await db.deleteFrom('email_changes').where('user_id', '=', userId).execute();
  await db.insertInto('email_changes').values({ key, user_id: userId, new_email: newEmail, created: now }).execute();
}

export async function takeEmailChange(db: Db, key: string): Promise<{ userId: number; newEmail: string; created: number } | undefined> {
  const row = await db.selectFrom('email_changes').selectAll().where('key', '=', key).executeTakeFirst();
  if (!row) return undefined;
  await db.deleteFrom('email_changes').where('key', '=', key).execute();
  return { userId: row.user_id, newEmail: row.new_email, created: row.created };
}
