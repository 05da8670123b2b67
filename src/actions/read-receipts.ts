// GET /messages/{id}/read_receipts: who has read a message, as the reference server tells it. Left out: the
// sender, deactivated users, users who turned send_read_receipts off, users who muted the caller (who could
// otherwise infer it) or whom the caller muted, and users the caller may not access.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { accessibleBy, canAccessUser } from '../permissions/users.js';
import { realmSettings } from '../state/realm.js';
import { userSetting } from '../state/user-settings.js';
import { listMutes, mutersOf } from '../store/muted-users.js';
import { readerIds } from '../store/read-receipts.js';
import type { Realm } from '../store/realms.js';
import { findUsers, type User } from '../store/users.js';
import { accessMessage } from './message-access.js';

export async function accessReadReceipts(app: App, realm: Realm, user: User, messageId: number): Promise<number[]> {
  const { message } = await accessMessage(app.db, realm, user, messageId);
  if (!realmSettings(realm).enable_read_receipts) throw new ApiError('Read receipts are disabled in this organization.');
  const muters = await mutersOf(app.db, realm.id, user.id);
  const muted = new Set((await listMutes(app.db, user.id)).map((m) => m.id));
  const accessible = await accessibleBy(app.db, realm, user);
  const readers = await findUsers(app.db, realm.id, (await readerIds(app.db, message.id)).filter((id) => id !== message.senderId && !muters.has(id) && !muted.has(id)));
  return readers
    .filter((u) => u.isActive && userSetting(u, 'send_read_receipts') && canAccessUser(accessible, u))
    .map((u) => u.id)
    .sort((a, b) => a - b);
}
