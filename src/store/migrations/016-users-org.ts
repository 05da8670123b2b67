import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

const flag = (def: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def);

// Organization pieces around users: alert words, custom profile fields and their values, allowed e-mail
// domains, the settings new users start with, and what a bot has beyond its user row.
export const usersOrg = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('alert_words'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('word', 'varchar(100)', (c) => c.notNull())
      .addColumn('word_key', 'varchar(100)', (c) => c.notNull())
      .addUniqueConstraint('alert_words_user_word', ['user_id', 'word_key'])
      .execute();
    await db.schema.createIndex('alert_words_realm').on('alert_words').columns(['realm_id', 'user_id']).execute();

    await idColumn(dialect, db.schema.createTable('custom_profile_fields'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(40)', (c) => c.notNull())
      .addColumn('hint', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('field_type', 'smallint', (c) => c.notNull())
      .addColumn('field_data', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('display_in_profile_summary', 'smallint', flag(0))
      .addColumn('required', 'smallint', flag(0))
      .addColumn('editable_by_user', 'smallint', flag(1))
      .addUniqueConstraint('custom_profile_fields_realm_name', ['realm_id', 'name'])
      .execute();
    await db.schema
      .createTable('custom_profile_field_values')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('field_id', 'integer', (c) => c.notNull().references('custom_profile_fields.id').onDelete('cascade'))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('rendered_value', 'text')
      .addPrimaryKeyConstraint('custom_profile_field_values_pk', ['user_id', 'field_id'])
      .execute();
    await db.schema.createIndex('custom_profile_field_values_field').on('custom_profile_field_values').column('field_id').execute();

    await idColumn(dialect, db.schema.createTable('realm_domains'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('domain', 'varchar(255)', (c) => c.notNull())
      .addColumn('allow_subdomains', 'smallint', flag(0))
      .addUniqueConstraint('realm_domains_realm_domain', ['realm_id', 'domain'])
      .execute();

    await db.schema
      .createTable('realm_user_defaults')
      .addColumn('realm_id', 'integer', (c) => c.primaryKey())
      .addColumn('settings', 'text', (c) => c.notNull())
      .execute();

    // Services are a single-element list in the API: one outgoing webhook or embedded service per bot.
    await db.schema
      .createTable('bot_settings')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('default_sending_stream_id', 'integer')
      .addColumn('default_events_register_stream_id', 'integer')
      .addColumn('default_all_public_streams', 'smallint', flag(0))
      .addColumn('service_name', 'varchar(100)')
      .addColumn('service_base_url', 'text')
      .addColumn('service_interface', 'smallint')
      .addColumn('service_token', 'varchar(64)')
      .addColumn('config_data', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
});
