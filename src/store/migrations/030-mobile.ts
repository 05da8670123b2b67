import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// What the mobile app needs beyond the core: users muted by each user (the reference's MutedUser), and
// submessages (widgets such as /poll and /todo, and their votes and tasks), which go with their message; default
// avatars drawn by the server; the mobile devices users register and their push notification registrations.
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

    // A logged-in mobile device (POST /register_client_device) and its end-to-end encrypted push registration:
    // the key notifications are encrypted with, the token registration it asked for (pending until the bouncer
    // accepts it) and the bouncer's id for it once it has.
    await idColumn(dialect, db.schema.createTable('devices'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('push_key_id', 'bigint')
      .addColumn('push_key', 'text')
      .addColumn('token_kind', 'varchar(8)')
      .addColumn('push_token_id', 'varchar(128)')
      .addColumn('pending_push_token_id', 'varchar(128)')
      .addColumn('pending_registration', 'text')
      .addColumn('push_token_last_updated', 'bigint')
      .addColumn('push_registration_error_code', 'varchar(64)')
      .addColumn('bouncer_device_id', 'bigint')
      .execute();
    await db.schema.createIndex('devices_user').on('devices').column('user_id').execute();

    // Push tokens registered the older way (POST /users/me/apns_device_token, /users/me/android_gcm_reg_id).
    await idColumn(dialect, db.schema.createTable('push_tokens'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'smallint', (c) => c.notNull())
      .addColumn('token', 'varchar(4096)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('ios_app_id', 'varchar(256)')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('push_tokens_once', ['user_id', 'kind', 'token_hash'])
      .execute();
  },
});
