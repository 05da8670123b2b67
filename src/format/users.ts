// The user object of GET /users, /users/{id} and realm_user events.
import crypto from 'node:crypto';
import { ROLE, type User } from '../store/users.js';

export interface UserFormatOptions {
  clientGravatar: boolean;
  includeCustomProfileFields?: boolean;
}

export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('Z', '+00:00');
}

export function gravatarUrl(email: string, version: number, medium = false): string {
  const hash = crypto.createHash('md5').update(email.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${version}`;
}

export function avatarUrl(user: User, clientGravatar: boolean, medium = false): string | null {
  if (user.avatarSource === 'G') return clientGravatar ? null : gravatarUrl(user.deliveryEmail, user.avatarVersion, medium);
  return `/avatar/${user.id}${medium ? '/medium' : ''}?v=${user.avatarVersion}`;
}

export function formatUser(user: User, opts: UserFormatOptions): Record<string, unknown> {
  return {
    user_id: user.id,
    email: user.email,
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
    date_joined: isoDate(user.dateJoined),
    is_active: user.isActive,
    is_owner: user.role === ROLE.owner,
    is_admin: user.role <= ROLE.administrator,
    is_guest: user.role === ROLE.guest,
    is_bot: user.isBot,
    bot_type: user.isBot ? user.botType : null,
    ...(user.isBot ? { bot_owner_id: user.botOwnerId } : {}),
    role: user.role,
    timezone: user.timezone,
    avatar_url: avatarUrl(user, opts.clientGravatar),
    avatar_version: user.avatarVersion,
    ...(opts.includeCustomProfileFields ? { profile_data: {} } : {}),
  };
}
