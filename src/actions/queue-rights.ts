// What a change of a user's role or their deactivation does to their event queues (events/control.ts): queues
// hold rights granted at registration, which must not outlive the role or the account.
import { QUEUE_CONTROL, type QueueControl } from '../events/control.js';
import type { Tx } from '../store/db.js';
import { deleteUserQueueRows, updateUserQueueOptions } from '../store/queue-rows.js';
import type { Realm } from '../store/realms.js';
import { ROLE, type User } from '../store/users.js';
import type { Emit } from './transaction.js';

const control = (c: { op: 'rights'; reads_public_channels: boolean } | { op: 'close' }): Record<string, unknown> => ({ type: QUEUE_CONTROL, ...c }) satisfies QueueControl;

// Guests read no public channel unsubscribed: their all_public_streams and narrow queues stop receiving them.
export async function roleChangedForQueues(tx: Tx, emit: Emit, realm: Realm, user: User, role: number): Promise<void> {
  const reads = role !== ROLE.guest;
  if (reads === (user.role !== ROLE.guest)) return;
  await updateUserQueueOptions(tx, user.id, (o) => ({ ...o, readsPublicChannels: reads }));
  emit(realm.id, control({ op: 'rights', reads_public_channels: reads }), [user.id]);
}

// A deactivated user's (or bot's) queues go at once; a parked poll is answered USER_DEACTIVATED.
export async function closeQueuesOf(tx: Tx, emit: Emit, realm: Realm, user: User): Promise<void> {
  await deleteUserQueueRows(tx, user.id);
  emit(realm.id, control({ op: 'close' }), [user.id]);
}
