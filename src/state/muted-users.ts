// The muted_users register block.
import type { Db } from '../store/db.js';
import { listMutes, type Mute } from '../store/muted-users.js';
import type { User } from '../store/users.js';

export async function mutedUsersState(db: Db, user: User | null): Promise<{ muted_users: Mute[] }> {
  return { muted_users: user ? await listMutes(db, user.id) : [] };
}
