import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Uploaded files (the bytes are in the object storage under `files/<path_id>`), the messages that link to them
// (which decide who may read them), and uploaded avatars (`avatars/<realm_id>/<file_name>`).
export const uploads = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('attachments'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('path_id', 'varchar(400)', (c) => c.notNull().unique())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'varchar(255)')
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('attachments_owner').on('attachments').columns(['owner_id', 'id']).execute();
    await db.schema.createIndex('attachments_realm').on('attachments').column('realm_id').execute();

    await db.schema
      .createTable('attachment_messages')
      .addColumn('attachment_id', 'integer', (c) => c.notNull().references('attachments.id').onDelete('cascade'))
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('attachment_messages_pk', ['attachment_id', 'message_id'])
      .execute();
    await db.schema.createIndex('attachment_messages_message').on('attachment_messages').column('message_id').execute();

    await db.schema
      .createTable('user_avatars')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('file_name', 'varchar(64)', (c) => c.notNull())
      .execute();
  },
});
