import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

const flag = (def: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def);

// Channels (`streams` in the API), subscriptions, default channels, channel folders and per-topic visibility.
// A channel's group-setting values are kept together as one JSON object (a group id or
// {direct_members, direct_subgroups} per setting).
export const channels = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('channel_folders'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'varchar(60)', (c) => c.notNull())
      .addColumn('name_key', 'varchar(60)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('rendered_description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('creator_id', 'integer')
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .addColumn('is_archived', 'smallint', flag(0))
      .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('channel_folders_realm_name', ['realm_id', 'name_key'])
      .execute();

    await idColumn(dialect, db.schema.createTable('streams'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'varchar(60)', (c) => c.notNull())
      .addColumn('name_key', 'varchar(60)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('rendered_description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .addColumn('creator_id', 'integer', (c) => c.references('users.id'))
      .addColumn('invite_only', 'smallint', flag(0))
      .addColumn('is_web_public', 'smallint', flag(0))
      .addColumn('history_public_to_subscribers', 'smallint', flag(1))
      .addColumn('message_retention_days', 'integer')
      .addColumn('is_archived', 'smallint', flag(0))
      .addColumn('folder_id', 'integer', (c) => c.references('channel_folders.id'))
      .addColumn('topics_policy', 'varchar(32)', (c) => c.notNull().defaultTo('inherit'))
      .addColumn('first_message_id', 'integer')
      .addColumn('group_settings', 'text', (c) => c.notNull())
      .addUniqueConstraint('streams_realm_name', ['realm_id', 'name_key'])
      .execute();

    await idColumn(dialect, db.schema.createTable('subscriptions'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addColumn('active', 'smallint', flag(1))
      .addColumn('is_muted', 'smallint', flag(0))
      .addColumn('pin_to_top', 'smallint', flag(0))
      .addColumn('color', 'varchar(10)', (c) => c.notNull())
      .addColumn('desktop_notifications', 'smallint')
      .addColumn('audible_notifications', 'smallint')
      .addColumn('push_notifications', 'smallint')
      .addColumn('email_notifications', 'smallint')
      .addColumn('wildcard_mentions_notify', 'smallint')
      .addUniqueConstraint('subscriptions_user_stream', ['user_id', 'stream_id'])
      .execute();
    await db.schema.createIndex('subscriptions_stream').on('subscriptions').columns(['stream_id', 'active']).execute();

    await db.schema
      .createTable('default_streams')
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addPrimaryKeyConstraint('default_streams_pk', ['realm_id', 'stream_id'])
      .execute();

    await idColumn(dialect, db.schema.createTable('user_topics'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addColumn('topic_name', 'varchar(60)', (c) => c.notNull())
      .addColumn('topic_key', 'varchar(60)', (c) => c.notNull())
      .addColumn('visibility_policy', 'smallint', (c) => c.notNull())
      .addColumn('last_updated', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('user_topics_user_stream_topic', ['user_id', 'stream_id', 'topic_key'])
      .execute();
  },
});
