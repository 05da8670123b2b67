// A user as the code above the store sees one, and how a row of `users` becomes one.
import type { Selectable } from 'kysely';
import type { UserTable } from './schema.js';
import type { SystemBotRole } from '../lib/identity.js';

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
  systemBot?: SystemBotRole | null; // which of the server's own bots this is
}

// What a User is made of: not the lookup keys (email_key, identity_key), which only queries use. Reading 50,000
// users (a register's realm_users) costs half as much without them.
export const USER_COLUMNS = [
  'id', 'realm_id', 'email', 'delivery_email', 'full_name', 'role', 'is_bot', 'bot_type', 'bot_owner_id', 'is_active', 'password_hash',
  'api_key', 'date_joined', 'timezone', 'avatar_source', 'avatar_version', 'settings', 'system_bot',
] as const;

export function toUser(row: Pick<Selectable<UserTable>, (typeof USER_COLUMNS)[number]>): User {
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
    systemBot: row.system_bot as SystemBotRole | null,
  };
}
