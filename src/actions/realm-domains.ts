// The e-mail domains an organization accepts for new users (emails_restricted_to_domains), with realm_domains
// events to everyone. Owners edit the list, as they alone change emails_restricted_to_domains (the reference
// server's require_realm_owner); everyone may read it.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { realmSettings } from '../state/realm.js';
import type { Db } from '../store/db.js';
import { findRealm, lockRealm, updateRealm, type Realm } from '../store/realms.js';
import { deleteRealmDomain, insertRealmDomain, listRealmDomains, updateRealmDomain, type RealmDomain } from '../store/realm-domains.js';
import { isUniqueViolation } from '../store/tx.js';
import type { User } from '../store/users.js';
import { inTransaction } from './transaction.js';
import { checkOwner } from './checks.js';

function domainProblem(domain: string): string | null {
  if (!domain) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (!label) return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

function checkDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem) throw new ApiError(`Invalid domain: ${problem}`);
  return domain;
}

export async function accessRealmDomains(app: App, realm: Realm): Promise<RealmDomain[]> {
  return listRealmDomains(app.db, realm.id);
}

// Returns the new entry's id with the domain, as the reference server's `new_domain` pair.
export async function doAddRealmDomain(app: App, realm: Realm, user: User, raw: string, allowSubdomains: boolean): Promise<[number, string]> {
  checkOwner(user);
  const domain = checkDomain(raw);
  const taken = () => new ApiError(`The domain ${domain} is already a part of your organization.`);
  try {
    return await inTransaction(app, async (tx, emit) => {
      if ((await listRealmDomains(tx, realm.id)).some((d) => d.domain === domain)) throw taken();
      const added = { domain, allow_subdomains: allowSubdomains };
      const id = await insertRealmDomain(tx, realm.id, added);
      emit(realm.id, { type: 'realm_domains', op: 'add', realm_domain: added }, null);
      return [id, domain];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

const noEntry = (domain: string) => new ApiError(`No entry found for domain ${domain}.`);

export async function doChangeRealmDomain(app: App, realm: Realm, user: User, domain: string, allowSubdomains: boolean): Promise<void> {
  checkOwner(user);
  await inTransaction(app, async (tx, emit) => {
    const d = { domain, allow_subdomains: allowSubdomains };
    if (!(await updateRealmDomain(tx, realm.id, d))) throw noEntry(domain);
    emit(realm.id, { type: 'realm_domains', op: 'change', realm_domain: d }, null);
  });
}

// Removing the last domain also lifts the restriction, which would otherwise admit nobody.
export async function doRemoveRealmDomain(app: App, realm: Realm, user: User, domain: string): Promise<void> {
  checkOwner(user);
  await inTransaction(app, async (tx, emit) => {
    await lockRealm(tx, app.dialect, realm.id);
    if (!(await deleteRealmDomain(tx, realm.id, domain))) throw noEntry(domain);
    const fresh = (await findRealm(tx, realm.id))!;
    if (!(await listRealmDomains(tx, realm.id)).length && realmSettings(fresh).emails_restricted_to_domains) {
      await updateRealm(tx, realm.id, { settings: { ...fresh.settings, emails_restricted_to_domains: false } });
      emit(realm.id, { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false }, null);
    }
    emit(realm.id, { type: 'realm_domains', op: 'remove', domain }, null);
  });
}

const localPart = (email: string) => email.slice(0, email.lastIndexOf('@'));
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

// Whether an organization that restricts e-mails to its domains admits this address (a listed domain, or a
// subdomain of one that allows them). Bots are not subject to it.
export async function checkEmailAllowed(db: Db, realm: Realm, email: string): Promise<void> {
  if (!realmSettings(realm).emails_restricted_to_domains) return;
  if (localPart(email).includes('+')) throw new ApiError('Email addresses containing + are not allowed.');
  const domain = domainOf(email);
  for (const d of await listRealmDomains(db, realm.id)) {
    if (d.domain === domain || (d.allow_subdomains && domain.endsWith(`.${d.domain}`))) return;
  }
  throw new ApiError(`Email '${email}' not allowed in this organization`);
}
