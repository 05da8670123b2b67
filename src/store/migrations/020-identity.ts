import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { addressKey } from '../../lib/identity.js';

// users.identity_key: the address as a reader sees it (src/lib/identity.ts), so that look-alikes of an address are
// found by one indexed query. users.system_bot: which of the server's own bots a row is ('notification',
// 'welcome'), so that they are found by identity rather than by address. Rows that already collide are kept (the
// server lists them at start-up): the key is indexed, not unique.
export const identity = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('identity_key', 'varchar(254)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('users').addColumn('system_bot', 'varchar(32)').execute();

    // For an ASCII address the key is email_key (trimmed, lower case); only the others need computing one by one.
    await db.updateTable('users').set((eb) => ({ identity_key: eb.ref('email_key') })).execute();
    const rows = await db.selectFrom('users').select(['id', 'realm_id', 'email', 'delivery_email', 'email_key', 'is_bot', 'bot_owner_id']).orderBy('id').execute();
    for (const row of rows) {
      const key = addressKey(row.delivery_email);
      if (key !== row.email_key) await db.updateTable('users').set({ identity_key: key }).where('id', '=', row.id).execute();
    }
    // The rows the server used as its bots until now: in each organization, the first ownerless bot whose address
    // starts so (as found before by address).
    const marked = new Set<string>();
    for (const [role, prefix] of [['notification', 'notification-bot@'], ['welcome', 'welcome-bot@']]) {
      for (const row of rows) {
        const key = `${row.realm_id} ${role}`;
        if (marked.has(key) || Number(row.is_bot) !== 1 || row.bot_owner_id !== null || !String(row.email).startsWith(prefix)) continue;
        marked.add(key);
        await db.updateTable('users').set({ system_bot: role }).where('id', '=', row.id).execute();
      }
    }

    await db.schema.createIndex('users_realm_identity').on('users').columns(['realm_id', 'identity_key']).execute();
    // NULLs are distinct in a unique index (SQLite and PostgreSQL alike): one bot per role and organization.
    await db.schema.createIndex('users_realm_system_bot').on('users').columns(['realm_id', 'system_bot']).unique().execute();
  },
});
