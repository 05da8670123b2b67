import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// Uploaded images the server could read: their size as shown (EXIF orientation applied), frames, and the
// thumbnail made at upload (its file name under thumbnail/<path_id>/, null when none could be made), as the
// reference's ImageAttachment keeps them for inline previews.
export const imagePreviews = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('image_previews')
      .addColumn('path_id', 'varchar(400)', (c) => c.primaryKey())
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('frames', 'integer', (c) => c.notNull())
      .addColumn('content_type', 'varchar(128)', (c) => c.notNull())
      .addColumn('thumbnail', 'varchar(64)')
      .execute();
  },
});
