// realm_user events reach only those who may access the user (feature level 228), and carry the real e-mail
// only to those who may see it (feature level 163).
import { fakeEmail, formatUser, inaccessibleUser } from '../format/users.js';
import { audienceOf, EMAIL_VISIBILITY, emailVisibility, guestsWithoutAccess, seesDeliveryEmail, userAccessLimited } from '../permissions/users.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { listUsers, type User } from '../store/users.js';
import type { Emit } from './transaction.js';

export async function emitPersonUpdate(tx: Tx, emit: Emit, realm: Realm, target: User, person: Record<string, unknown>): Promise<void> {
  emit(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, ...person } }, await audienceOf(tx, realm, target));
}

// A new user: the full object to those who may access them (delivery_email null where it is hidden), a
// placeholder to guests who may not (queues with user_list_incomplete skip those, see events/filter.ts).
export async function emitUserAdded(tx: Tx, emit: Emit, realm: Realm, user: User, fakeDomain: string): Promise<void> {
  const systemGroups = await systemGroupIds(tx, realm.id);
  const visibility = emailVisibility(user);
  const limited = !user.isBot && userAccessLimited(realm, systemGroups);
  const person = (seesEmail: boolean) => formatUser(user, { clientGravatar: false, seesEmail, profileData: {} });
  if (visibility === EMAIL_VISIBILITY.everyone && !limited) {
    emit(realm.id, { type: 'realm_user', op: 'add', person: person(true) }, null);
    return;
  }
  const users = (await listUsers(tx, realm.id)).filter((u) => u.isActive);
  const blind = limited ? await guestsWithoutAccess(tx, realm, systemGroups, user, users) : new Set<number>();
  const seeing: number[] = [];
  const notSeeing: number[] = [];
  for (const u of users) {
    if (blind.has(u.id)) continue;
    (seesDeliveryEmail(u, user.id, visibility) ? seeing : notSeeing).push(u.id);
  }
  if (seeing.length) emit(realm.id, { type: 'realm_user', op: 'add', person: person(true) }, seeing);
  // Those who cannot see the real address cannot compute an external avatar from it either.
  if (notSeeing.length) emit(realm.id, { type: 'realm_user', op: 'add', person: person(false), _avatar_for_all: true }, notSeeing);
  if (blind.size) {
    emit(realm.id, { type: 'realm_user', op: 'add', person: inaccessibleUser(user.id, fakeDomain, true), _inaccessible_user: true }, [...blind]);
  }
}

// After a change of who may see `target`'s real e-mail (its visibility setting, or a viewer's role): each user
// whose access changed learns the address, or null when access is lost.
export function emitDeliveryEmailChanges(emit: Emit, realm: Realm, target: User, viewers: User[], could: (v: User) => boolean, can: (v: User) => boolean): void {
  const gained: number[] = [];
  const lost: number[] = [];
  for (const v of viewers) {
    if (!v.isActive || could(v) === can(v)) continue;
    (can(v) ? gained : lost).push(v.id);
  }
  if (gained.length) emit(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: target.deliveryEmail } }, gained);
  if (lost.length) emit(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: null } }, lost);
}

// The API e-mail is the real address only while everyone may see it.
export function apiEmailFor(user: User, visibility: number, fakeDomain: string): string {
  return visibility === EMAIL_VISIBILITY.everyone ? user.deliveryEmail : fakeEmail(user.id, fakeDomain);
}
