import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

const flag = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

// The rest of the reference API the clients call: default channel groups, code playgrounds, e-mail invitations,
// and the queue of outgoing e-mail (sent by a worker, retried with backoff).
export const referenceApi = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('default_stream_groups'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'varchar(60)', (c) => c.notNull())
      .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
      .addUniqueConstraint('default_stream_groups_name', ['realm_id', 'name'])
      .execute();
    await db.schema
      .createTable('default_stream_group_channels')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('default_stream_groups.id').onDelete('cascade'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addPrimaryKeyConstraint('default_stream_group_channels_pk', ['group_id', 'stream_id'])
      .execute();

    await idColumn(dialect, db.schema.createTable('realm_playgrounds'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('pygments_language', 'varchar(40)', (c) => c.notNull())
      .addColumn('url_template', 'varchar(1024)', (c) => c.notNull())
      .addUniqueConstraint('realm_playgrounds_once', ['realm_id', 'pygments_language', 'name'])
      .execute();

    await idColumn(dialect, db.schema.createTable('email_invites'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('email', 'varchar(254)', (c) => c.notNull())
      .addColumn('key', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('invited_by', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('invited_at', 'bigint', (c) => c.notNull())
      // Null: never expires.
      .addColumn('expiry', 'bigint')
      .addColumn('invited_as', 'smallint', (c) => c.notNull())
      .addColumn('stream_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('group_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('include_realm_default_subscriptions', 'smallint', flag)
      .addColumn('notify_referrer_on_join', 'smallint', flag)
      .addColumn('welcome_message_custom_text', 'text')
      // 0 waiting, 1 accepted, 2 revoked.
      .addColumn('status', 'smallint', flag)
      .execute();
    await db.schema.createIndex('email_invites_realm').on('email_invites').columns(['realm_id', 'status']).execute();

    await idColumn(dialect, db.schema.createTable('outgoing_mail'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt', 'bigint', (c) => c.notNull())
      .addColumn('sent_at', 'bigint')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('outgoing_mail_due').on('outgoing_mail').columns(['sent_at', 'next_attempt']).execute();
  },
});
