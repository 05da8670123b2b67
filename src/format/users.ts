// The user object of GET /users, /users/{id}, POST /register's realm_users and realm_user events.
import type { ProfileValue } from '../store/profile-fields.js';
import { PLACEHOLDER_DOMAIN } from '../lib/identity.js';
import { ROLE, type User } from '../store/users.js';

export interface UserFormatOptions {
  clientGravatar: boolean;
  // Whether the viewer may see the user's real e-mail (delivery_email is null otherwise).
  seesEmail: boolean;
  // The user's custom profile data; when given, non-bot users carry profile_data.
  profileData?: Record<string, ProfileValue>;
  // user_avatar_url_field_optional: avatar_url is left out for users with the default avatar, which clients
  // fetch through GET /avatar/{user_id}.
  avatarOptional?: boolean;
}

export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('Z', '+00:00');
}

// The bookkeeping key (not a setting: names starting with `_` are not) under which a user's uploaded avatar is
// named, so that its URL is known wherever the user is.
export const AVATAR_NAME = '_avatar';

// Avatar URLs have the reference's shape, `/user_avatars/<realm>/<name>.png?version=N`, with the 500-pixel
// variant at `<name>-medium.png`, which clients derive from it. Default avatars are drawn here, never fetched from
// an outside service, so there is no external avatar for a client to compute: `clientGravatar` changes nothing.
export function avatarUrl(user: User, _clientGravatar: boolean, medium = false): string | null {
  const size = medium ? '-medium' : '';
  const version = `version=${user.avatarVersion}`;
  if (user.avatarSource === 'U') {
    const name = user.settings[AVATAR_NAME];
    // An avatar uploaded before avatars were resized is reached through its user.
    return typeof name === 'string' ? `/user_avatars/${user.realmId}/${name}${size}.png?${version}` : `/avatar/${user.id}${size}.png?${version}`;
  }
  return `/user_avatars/${user.realmId}/default/${user.id}${size}.png?${version}`;
}

export function formatUser(user: User, opts: UserFormatOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user_id: user.id,
    email: user.email,
    delivery_email: opts.seesEmail ? user.deliveryEmail : null,
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
  };
  // Left out rather than deleted: a deletion turns the object into a slow dictionary, and a register of 50,000
  // users serialises 50,000 of them. A client can compute an external avatar only from an address it can see.
  if (!opts.avatarOptional || user.avatarSource === 'U') out.avatar_url = avatarUrl(user, opts.clientGravatar && opts.seesEmail);
  out.avatar_version = user.avatarVersion;
  if (opts.profileData && !user.isBot) out.profile_data = opts.profileData;
  return out;
}

export const INACCESSIBLE_USER_NAME = 'Unknown user';
export const INACCESSIBLE_USER_AVATAR = '/static/images/unknown-user-avatar.png';

// What a guest limited by can_access_all_users_group is told about a user they may not access: placeholder data
// whose only variable content is the id, as the reference server sends.
export function inaccessibleUser(id: number, fakeDomain: string, profileData: boolean): Record<string, unknown> {
  return {
    user_id: id,
    email: fakeEmail(id, fakeDomain),
    delivery_email: null,
    full_name: INACCESSIBLE_USER_NAME,
    // To the minute, so that it reveals nothing of the user.
    date_joined: new Date().toISOString().slice(0, 16) + '+00:00',
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    role: ROLE.member,
    timezone: '',
    avatar_url: INACCESSIBLE_USER_AVATAR,
    avatar_version: 1,
    ...(profileData ? { profile_data: {} } : {}),
  };
}

// The sender fields of a message whose sender the viewer may not access, as the reference server sends them.
export function unknownSender(id: number, fakeDomain: string): Record<string, unknown> {
  return { sender_full_name: INACCESSIBLE_USER_NAME, sender_email: fakeEmail(id, fakeDomain), avatar_url: INACCESSIBLE_USER_AVATAR };
}

// The e-mail and name in a reaction's (deprecated) user object for a reacting user the viewer may not access.
export function unknownReactor(id: number, fakeDomain: string): { email: string; full_name: string } {
  return { email: fakeEmail(id, fakeDomain), full_name: INACCESSIBLE_USER_NAME };
}

// The API e-mail of a user whose real address is not visible to everyone.
export function fakeEmail(id: number, domain: string): string {
  return `user${id}@${domain}`;
}

// The domain of those addresses: the organization's host when PARLANCE_EXTERNAL_URL names it, else a reserved
// domain that never delivers mail.
export function fakeEmailDomain(externalUrl: string | undefined, subdomain: string): string {
  if (externalUrl) {
    const host = new URL(externalUrl).hostname;
    return subdomain ? `${subdomain}.${host}` : host;
  }
  return subdomain ? `${subdomain}.${PLACEHOLDER_DOMAIN}` : PLACEHOLDER_DOMAIN;
}

export const realmFakeEmailDomain = (app: { config: { externalUrl?: string } }, realm: { stringId: string }) => fakeEmailDomain(app.config.externalUrl, realm.stringId);
