// A user's avatar: its source and version on the user row, and the stored image of an uploaded one.
import { sql } from 'kysely';
import type { Db } from './db.js';

export async function avatarFileName(db: Db, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('user_avatars').select('file_name').where('user_id', '=', userId).executeTakeFirst();
  return row?.file_name;
}

// Records the new source (and image, for an upload) and moves the version on, so clients drop cached images.
// Returns the new version.
export async function setAvatar(db: Db, userId: number, source: string, fileName: string | null): Promise<number> {
  await db.deleteFrom('user_avatars').where('user_id', '=', userId).execute();
  if (fileName !== null) await db.insertInto('user_avatars').values({ user_id: userId, file_name: fileName }).execute();
  const row = await db
    .updateTable('users')
    .set({ avatar_source: source, avatar_version: sql<number>`avatar_version + 1` })
    .where('id', '=', userId)
    .returning('avatar_version')
    .executeTakeFirstOrThrow();
  return row.avatar_version;
}
