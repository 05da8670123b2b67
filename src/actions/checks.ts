// Validation shared by the actions that create or rename people and organizations, and the role checks.
import { ApiError } from '../lib/errors.js';
import { codePointLength, invalidCharacterPosition } from '../lib/text.js';
import { isGuest } from '../permissions/channels.js';
import { ROLE, type User } from '../store/users.js';

export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 100;
const NAME_INVALID_CHARS = /[*`\\>"@]/;
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
// The local part as the reference's validator (Django's dot-atom) takes it: ASCII only, so that no address can
// pass for another through look-alike letters there. Domains may be international; src/lib/identity.ts compares
// them by what they look like.
const LOCAL_PART = /^[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+(?:\.[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+)*$/;

export function checkEmail(email: string): string {
  const e = email.trim();
  const at = e.lastIndexOf('@');
  const domain = e.slice(at + 1);
  const valid =
    codePointLength(e) <= 254 &&
    at > 0 &&
    LOCAL_PART.test(e.slice(0, at)) &&
    !/[\s,;<>()[\]\\"]/.test(e) &&
    e.indexOf('@') === at &&
    (domain.includes('.') || domain === 'localhost') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.');
  if (!valid) throw new ApiError(`Invalid email '${email}'`);
  return e;
}

export function checkFullName(name: string): string {
  const n = name.trim();
  if (codePointLength(n) > MAX_NAME_LENGTH) throw new ApiError('Name too long!');
  if (codePointLength(n) < MIN_NAME_LENGTH) throw new ApiError('Name too short!');
  if (NAME_INVALID_CHARS.test(n) || invalidCharacterPosition(n)) throw new ApiError('Invalid characters in name!');
  // A trailing `|15` would read as the id part of a mention (@**name|15**).
  if (/\|\d+$/.test(n)) throw new ApiError('Invalid format!');
  return n;
}

export function checkPassword(password: string): string {
  const n = codePointLength(password);
  if (n < PASSWORD_MIN_LENGTH || n > PASSWORD_MAX_LENGTH) throw new ApiError('The password is too weak.');
  return password;
}

export function checkSubdomain(subdomain: string): string {
  const s = subdomain.trim().toLowerCase();
  if (s !== '' && !SUBDOMAIN.test(s)) {
    throw new ApiError('Subdomains can only have lowercase letters, numbers, and hyphens, up to 40 characters.');
  }
  return s;
}

export function checkRealmName(name: string): string {
  const n = name.trim();
  if (n.length === 0 || codePointLength(n) > 40) throw new ApiError('Organization name must be 1 to 40 characters.');
  return n;
}

// Personal settings, status and presence are for people; the reference server refuses bots there.
export function checkHuman(user: { isBot: boolean }): void {
  if (user.isBot) throw new ApiError('This endpoint does not accept bot requests.');
}

export function checkNotGuest(user: { role: number }): void {
  if (isGuest(user)) throw new ApiError('Not allowed for guest users');
}

// The reference server's require_member_or_admin: guests are refused first, then bots.
export function checkMemberOrAdmin(user: { isBot: boolean; role: number }): void {
  checkNotGuest(user);
  checkHuman(user);
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
