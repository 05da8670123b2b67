import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

export function idColumn<T extends string>(dialect: Dialect, table: CreateTableBuilder<T, never>) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const flag = (def: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def);

export const core = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('realms'))
      .addColumn('string_id', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('deactivated', 'smallint', flag(0))
      .addColumn('password_auth_enabled', 'smallint', flag(1))
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      // Organization settings that differ from their defaults, as a JSON object (see src/state/realm.ts).
      .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();

    await idColumn(dialect, db.schema.createTable('users'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('email', 'varchar(254)', (c) => c.notNull())
      .addColumn('delivery_email', 'varchar(254)', (c) => c.notNull())
      .addColumn('email_key', 'varchar(254)', (c) => c.notNull())
      .addColumn('full_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('role', 'smallint', (c) => c.notNull())
      .addColumn('is_bot', 'smallint', flag(0))
      .addColumn('bot_type', 'smallint')
      .addColumn('bot_owner_id', 'integer', (c) => c.references('users.id'))
      .addColumn('is_active', 'smallint', flag(1))
      .addColumn('password_hash', 'text')
      .addColumn('api_key', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('date_joined', 'bigint', (c) => c.notNull())
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar_source', 'varchar(1)', (c) => c.notNull().defaultTo('G'))
      .addColumn('avatar_version', 'integer', (c) => c.notNull().defaultTo(1))
      // Personal settings that differ from their defaults, as a JSON object (see src/state/user-settings.ts).
      .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
      .addUniqueConstraint('users_realm_email_key', ['realm_id', 'email_key'])
      .execute();

    await idColumn(dialect, db.schema.createTable('user_groups'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_system_group', 'smallint', flag(0))
      .addColumn('deactivated', 'smallint', flag(0))
      .addColumn('creator_id', 'integer', (c) => c.references('users.id'))
      .addColumn('date_created', 'bigint')
      .addUniqueConstraint('user_groups_realm_name', ['realm_id', 'name'])
      .execute();

    await db.schema
      .createTable('user_group_members')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addPrimaryKeyConstraint('user_group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('user_group_members_user').on('user_group_members').column('user_id').execute();

    await db.schema
      .createTable('user_group_subgroups')
      .addColumn('supergroup_id', 'integer', (c) => c.notNull().references('user_groups.id'))
      .addColumn('subgroup_id', 'integer', (c) => c.notNull().references('user_groups.id'))
      .addPrimaryKeyConstraint('user_group_subgroups_pk', ['supergroup_id', 'subgroup_id'])
      .execute();
  },
});
