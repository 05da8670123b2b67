import type { App } from '../app.js';
import type { Tx } from '../store/db.js';
import type { Recipient } from '../store/events.js';
import { transaction } from '../store/tx.js';

export type Emit = (realmId: number, event: Record<string, unknown>, users: Recipient[] | null) => void;

// The one way actions write: `fn` does its work on `tx` and emits events; they are logged in the same
// transaction and handed to this process's queues only after the commit — before the action returns, so that a
// client polling right after the response finds them (even while a read of the log for other processes' events
// is under way, which delivery must wait for to keep the log's order).
export async function inTransaction<T>(app: App, fn: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
  const { result, events } = await transaction(app.db, app.dialect, (tx, push) =>
    fn(tx, (realmId, event, users) => push({ realmId, event, users })),
  );
  if (events.length) await app.eventsCommitted(events);
  return result;
}
