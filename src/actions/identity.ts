// No identity can be made to collide with another. Every path that creates an address or changes one (POST
// /users, POST /bots, sign-up, e-mail change confirmation, organization creation, the command line, the server's
// own bots) goes through checkAddressAvailable; rows that collided before it existed are listed at start-up.
import type { App } from '../app.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { ApiError } from '../lib/errors.js';
import { addressKey, isPlaceholderAddress, PLACEHOLDER_DOMAIN, SYSTEM_BOTS, systemBotAddressed, textKey, type SystemBotRole } from '../lib/identity.js';
import type { Db, Tx } from '../store/db.js';
import { listRealms, lockRealm, type Realm } from '../store/realms.js';
import { dialectOf } from '../store/search.js';
import { findUsersByIdentityKey, type User } from '../store/users.js';
import { identityRowsToReview, type IdentityRow } from '../store/user-identities.js';
import { emailVisibility, seesDeliveryEmail, type Looker } from '../permissions/users.js';

export interface AddressCheck {
  placeholderDomain: string;
  // The user whose address changes (their own address does not collide with itself).
  except?: number;
  // Set when the server makes one of its own bots, which alone may have that bot's address.
  systemBot?: SystemBotRole;
  // The message when another user has the address (or a look-alike of it).
  taken?: string;
  // Asked for by this user ahead of a later, final check: an address held only by users who hide it from them
  // passes, so that the answer tells them nothing they may not see.
  visibleTo?: Looker;
}

// Refuses an address that equals, or reads the same as (case, Unicode look-alikes, invisible characters), another
// user's of the organization, a system bot's (at any domain: the bots' domain follows configuration), or a
// placeholder address. In a transaction that then writes the address, call lockIdentities first.
export async function checkAddressAvailable(db: Db, realm: Realm, email: string, opts: AddressCheck): Promise<void> {
  const key = addressKey(email);
  const role = systemBotAddressed(key);
  if (role && role !== opts.systemBot) throw new ApiError(`${email} is reserved for system bots`);
  if (isPlaceholderAddress(key, opts.placeholderDomain)) throw new ApiError(`${email} is reserved for placeholder addresses`);
  const holders = (await findUsersByIdentityKey(db, realm.id, key)).filter((u) => u.id !== opts.except);
  const told = opts.visibleTo ? holders.filter((u) => seesDeliveryEmail(opts.visibleTo!, u.id, emailVisibility(u))) : holders;
  if (told.length) throw new ApiError(opts.taken ?? `Email '${email}' already in use`);
}

// A name as a reader sees it (src/lib/identity.ts), kept with each cached user row so that it is computed once.
const nameKeys = new WeakMap<User, string>();
export function nameKeyOf(u: User): string {
  let key = nameKeys.get(u);
  if (key === undefined) nameKeys.set(u, (key = textKey(u.fullName)));
  return key;
}

// Two look-alike addresses written at once would both pass the check: on PostgreSQL they wait for each other on the
// organization's row (SQLite writes one transaction at a time).
export const lockIdentities = (tx: Tx, realm: Realm) => lockRealm(tx, dialectOf(tx), realm.id);

export interface Collision {
  realmId: number;
  problem: string;
  users: { id: number; email: string }[];
}

// Rows that collide, which the checks above would refuse today: addresses that read the same within an
// organization, a system bot's address held by another row, placeholder addresses held by real rows.
export async function findIdentityCollisions(app: App): Promise<Collision[]> {
  const realms = await listRealms(app.db);
  const placeholderDomains = new Map(realms.map((r) => [r.id, realmFakeEmailDomain(app, r)]));
  const patterns = [
    `%@${PLACEHOLDER_DOMAIN}`, `%.${PLACEHOLDER_DOMAIN}`,
    ...Object.values(SYSTEM_BOTS).map((b) => `${b.localPart}@%`),
    ...[...new Set(placeholderDomains.values())].map((d) => `user%@${textKey(d)}`),
  ];
  const { shared, matching } = await identityRowsToReview(app.db, patterns);
  const user = (r: IdentityRow) => ({ id: r.id, email: r.email });
  const out: Collision[] = [];
  const groups = new Map<string, IdentityRow[]>();
  for (const r of shared) groups.set(`${r.realmId} ${r.identityKey}`, [...(groups.get(`${r.realmId} ${r.identityKey}`) ?? []), r]);
  for (const rows of groups.values()) out.push({ realmId: rows[0].realmId, problem: 'the same address', users: rows.map(user) });
  for (const r of matching) {
    const role = systemBotAddressed(r.identityKey);
    if (role && r.systemBot !== role) out.push({ realmId: r.realmId, problem: `the ${SYSTEM_BOTS[role].fullName}'s address`, users: [user(r)] });
    else if (isPlaceholderAddress(r.identityKey, placeholderDomains.get(r.realmId) ?? PLACEHOLDER_DOMAIN)) {
      out.push({ realmId: r.realmId, problem: 'a placeholder address', users: [user(r)] });
    }
  }
  return out;
}

// At start-up: each collision once in the log, as a warning an operator can act on (the rows keep working).
export async function reportIdentityCollisions(app: App): Promise<void> {
  const collisions = await findIdentityCollisions(app);
  if (!collisions.length) return;
  const lines = collisions.map((c) => `organization ${c.realmId}: ${c.users.map((u) => `user ${u.id} <${u.email}>`).join(', ')} ${c.users.length > 1 ? 'have' : 'has'} ${c.problem}`);
  app.log.warn({ collisions }, `Existing users with colliding addresses, which no user can get any more: ${lines.join('; ')}`);
}
