import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

const flag = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

// Reusable invitation links (§4.17), and reminders: scheduled messages that point at the message they recall.
export const invitesAndReminders = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('multiuse_invites'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('key', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('referred_by', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('invited_as', 'smallint', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      // Null: never expires.
      .addColumn('expiry', 'bigint')
      .addColumn('revoked', 'smallint', flag)
      .addColumn('include_realm_default_subscriptions', 'smallint', flag)
      // JSON lists of channel and user group ids.
      .addColumn('stream_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('group_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      // Null: the organization's text; empty: no custom welcome message.
      .addColumn('welcome_message_custom_text', 'text')
      .execute();
    await db.schema.createIndex('multiuse_invites_realm').on('multiuse_invites').columns(['realm_id', 'revoked']).execute();
    await db.schema.alterTable('scheduled_messages').addColumn('reminder_target_message_id', 'integer').execute();
  },
});
