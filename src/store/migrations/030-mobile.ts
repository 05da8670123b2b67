import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// What the mobile app needs beyond the core: users muted by each user (the reference's MutedUser), and
// submessages (widgets such as /poll and /todo, and their votes and tasks), which go with their message; default
// avatars drawn by the server.
export const mobile = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('muted_users')
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('muted_user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('date_muted', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('muted_users_pk', ['user_id', 'muted_user_id'])
      .execute();
    await db.schema.createIndex('muted_users_realm').on('muted_users').column('realm_id').execute();
    await db.schema.createIndex('muted_users_muted').on('muted_users').column('muted_user_id').execute();

    // Default avatars are drawn here from now on (source J), never fetched from an outside service.
    await db.updateTable('users').set({ avatar_source: 'J' }).where('avatar_source', '=', 'G').execute();

    await idColumn(dialect, db.schema.createTable('submessages'))
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('msg_type', 'varchar(100)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('submessages_message').on('submessages').columns(['message_id', 'id']).execute();
  },
});
