import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './db.js';
import { core } from './migrations/001-core.js';
import { events } from './migrations/002-events.js';
import { channels } from './migrations/003-channels.js';
import { messages } from './migrations/004-messages.js';
import { reactions } from './migrations/005-reactions.js';
import { emojiAndLinkifiers } from './migrations/006-emoji-linkifiers.js';
import { emailChanges } from './migrations/008-email-changes.js';
import { presence } from './migrations/009-presence.js';
import { drafts } from './migrations/010-drafts.js';
import { snippetsAndViews } from './migrations/011-snippets-views.js';
import { groupSettings } from './migrations/012-group-settings.js';
import { scheduledMessages } from './migrations/013-scheduled-messages.js';
import { search } from './migrations/007-search.js';
import { uploads } from './migrations/014-uploads.js';
import { invitesAndReminders } from './migrations/015-invites-reminders.js';
import { usersOrg } from './migrations/016-users-org.js';
import { cacheLogAndClustering } from './migrations/019-performance.js';
import { identity } from './migrations/020-identity.js';
import { botStorage } from './migrations/021-bot-storage.js';
import { uploadSpace } from './migrations/025-upload-space.js';
import { mobile } from './migrations/030-mobile.js';
import { referenceApi } from './migrations/031-reference-api.js';
import { mail } from './migrations/032-mail.js';
import { historyIndexes } from './migrations/027-history-indexes.js';
import { imagePreviews } from './migrations/028-image-previews.js';
import { sessions } from './migrations/029-sessions.js';
import { integrations } from './migrations/033-integrations.js';
import { plannerStatistics } from './migrations/034-planner-statistics.js';
import { postgresSearchTable } from './migrations/037-postgres-search-table.js';
import { userMessagesKeys } from './migrations/038-user-messages-keys.js';
import { userRowVersions } from './migrations/039-user-row-versions.js';

// Migrations are listed here in order; each is a function of the dialect so it can spell an auto-increment key.
const migrations: Record<string, (dialect: Dialect) => Migration> = {
  '001-core': core,
  '002-events': events,
  '003-channels': channels,
  '004-messages': messages,
  '005-reactions': reactions,
  '006-emoji-linkifiers': emojiAndLinkifiers,
  '008-email-changes': emailChanges,
  '009-presence': presence,
  '010-drafts': drafts,
  '011-snippets-views': snippetsAndViews,
  '012-group-settings': groupSettings,
  '013-scheduled-messages': scheduledMessages,
  '007-search': search,
  '014-uploads': uploads,
  '015-invites-reminders': invitesAndReminders,
  '016-users-org': usersOrg,
  '019-performance': cacheLogAndClustering,
  '020-identity': identity,
  '021-bot-storage': botStorage,
  '025-upload-space': uploadSpace,
  '030-mobile': mobile,
  '031-reference-api': referenceApi,
  '027-history-indexes': historyIndexes,
  '028-image-previews': imagePreviews,
  '029-sessions': sessions,
  '032-mail': mail,
  '033-integrations': integrations,
  '034-planner-statistics': plannerStatistics,
  '037-postgres-search-table': postgresSearchTable,
  '038-user-messages-keys': userMessagesKeys,
  '039-user-row-versions': userRowVersions,
};

export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const provider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, m(dialect)]));
    },
  };
  const { error } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) throw error;
}
