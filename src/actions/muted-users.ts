// Muting a user (POST/DELETE /users/me/muted_users/{id}): their messages arrive already read, and their typing
// and notifications do not reach the muter. Bots and deactivated users may be muted, as on the reference server.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import type { Tx } from '../store/db.js';
import { changeFlag, FLAG_BITS } from '../store/messages.js';
import { addMute, listMutes, removeMute, unreadFrom } from '../store/muted-users.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { inTransaction, type Emit } from './transaction.js';
import { accessUser } from './users.js';

// The user to mute or unmute: one the caller may access, never one of the server's own bots (the reference keeps
// them outside the organization, where its lookup does not find them).
async function accessMutable(app: App, realm: Realm, user: User, targetId: number): Promise<User> {
  const target = await accessUser(app, realm, user, { id: targetId });
  if (target.systemBot) throw new ApiError('No such user');
  return target;
}

async function notify(tx: Tx, emit: Emit, realm: Realm, user: User): Promise<void> {
  emit(realm.id, { type: 'muted_users', muted_users: await listMutes(tx, user.id) }, [user.id]);
}

export async function doMuteUser(app: App, realm: Realm, user: User, targetId: number): Promise<void> {
  if (targetId === user.id) throw new ApiError('Cannot mute self');
  const target = await accessMutable(app, realm, user, targetId);
  await inTransaction(app, async (tx, emit) => {
    if (!(await addMute(tx, realm.id, user.id, target.id, Math.floor(Date.now() / 1000)))) throw new ApiError('User already muted');
    // What the muted user sent before is read from now on, as what they send next will arrive.
    const read = await changeFlag(tx, user.id, await unreadFrom(tx, user.id, target.id), FLAG_BITS.read, true);
    if (read.length) emit(realm.id, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: read, all: false }, [user.id]);
    await notify(tx, emit, realm, user);
  });
}

export async function doUnmuteUser(app: App, realm: Realm, user: User, targetId: number): Promise<void> {
  const target = await accessMutable(app, realm, user, targetId);
  await inTransaction(app, async (tx, emit) => {
    if (!(await removeMute(tx, user.id, target.id))) throw new ApiError('User is not muted');
    await notify(tx, emit, realm, user);
  });
}
