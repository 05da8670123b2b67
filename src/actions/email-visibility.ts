// The real (delivery) e-mail and the API e-mail as they change: a user's email_address_visibility, a viewer's
// role, and a confirmed change of address each tell exactly the users whose view changed (contract §6).
import { EMAIL_VISIBILITY, emailVisibility, seesDeliveryEmail } from '../permissions/users.js';
import type { Tx } from '../store/db.js';
import { touchPresence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { listUsers, updateUser, type User } from '../store/users.js';
import type { Emit } from './transaction.js';
import { apiEmailFor, emitDeliveryEmailChanges, emitPersonUpdate } from './user-events.js';

// The organization's users, read at most once however many users one request changes.
export type UserList = () => Promise<User[]>;

export function lazyUsers(tx: Tx, realmId: number): UserList {
  let users: Promise<User[]> | undefined;
  return () => (users ??= listUsers(tx, realmId));
}

// Returns the user with the API e-mail it now has.
export async function applyVisibilityChange(tx: Tx, emit: Emit, realm: Realm, target: User, before: number, after: number, fakeDomain: string, users: UserList): Promise<User> {
  if (target.isBot || before === after) return target;
  emitDeliveryEmailChanges(emit, realm, target, await users(), (v) => seesDeliveryEmail(v, target.id, before), (v) => seesDeliveryEmail(v, target.id, after));
  if ((before === EMAIL_VISIBILITY.everyone) === (after === EMAIL_VISIBILITY.everyone)) return target;
  const email = apiEmailFor(target, after, fakeDomain);
  await updateUser(tx, target.id, { apiEmail: email });
  await touchPresence(tx, realm.id, target.id);
  const changed = { ...target, email };
  await emitPersonUpdate(tx, emit, realm, changed, { new_email: email });
  return changed;
}

// A new role may show the viewer addresses it could not see before, or hide them.
export async function applyViewerRoleChange(tx: Tx, emit: Emit, realm: Realm, viewer: User, oldRole: number, newRole: number): Promise<void> {
  if (!viewer.isActive) return;
  for (const target of await listUsers(tx, realm.id)) {
    if (target.id === viewer.id || !target.isActive) continue;
    const visibility = emailVisibility(target);
    emitDeliveryEmailChanges(emit, realm, target, [viewer], (v) => seesDeliveryEmail({ id: v.id, role: oldRole }, target.id, visibility), (v) => seesDeliveryEmail({ id: v.id, role: newRole }, target.id, visibility));
  }
}

// A confirmed new address: those who may see it learn it; the API e-mail follows only while it is public.
export async function applyDeliveryEmailChange(tx: Tx, emit: Emit, realm: Realm, user: User, newEmail: string): Promise<User> {
  const visibility = emailVisibility(user);
  const isPublic = visibility === EMAIL_VISIBILITY.everyone;
  await updateUser(tx, user.id, { email: newEmail, ...(isPublic ? {} : { apiEmail: user.email }) });
  if (isPublic) await touchPresence(tx, realm.id, user.id);
  const changed = { ...user, deliveryEmail: newEmail, email: isPublic ? newEmail : user.email };
  const seers = (await listUsers(tx, realm.id)).filter((v) => v.isActive && seesDeliveryEmail(v, user.id, visibility)).map((v) => v.id);
  emit(realm.id, { type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: newEmail } }, seers);
  if (isPublic) await emitPersonUpdate(tx, emit, realm, changed, { new_email: newEmail });
  return changed;
}
