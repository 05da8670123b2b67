import type { Selectable, Updateable } from 'kysely';
import type { Db } from './db.js';
import type { StreamTable } from './schema.js';
import { cached, cacheMap } from './cache.js';
import { dialectOf } from './search.js';

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
  'can_create_topic_group',
] as const;
export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

export interface Stream {
  id: number;
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  dateCreated: number;
  creatorId: number | null;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  isArchived: boolean;
  folderId: number | null;
  topicsPolicy: string;
  firstMessageId: number | null;
  groups: Record<ChannelGroupSetting, GroupSettingValue>;
}

function toStream(r: Selectable<StreamTable>): Stream {
  return {
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    description: r.description,
    renderedDescription: r.rendered_description,
    dateCreated: r.date_created,
    creatorId: r.creator_id,
    inviteOnly: r.invite_only === 1,
    isWebPublic: r.is_web_public === 1,
    historyPublicToSubscribers: r.history_public_to_subscribers === 1,
    messageRetentionDays: r.message_retention_days,
    isArchived: r.is_archived === 1,
    folderId: r.folder_id,
    topicsPolicy: r.topics_policy,
    firstMessageId: r.first_message_id,
    groups: JSON.parse(r.group_settings),
  };
}

export const nameKey = (name: string) => name.trim().toLowerCase();

export type NewStream = Omit<Stream, 'id' | 'isArchived' | 'firstMessageId'>;

export async function insertStream(db: Db, s: NewStream): Promise<Stream> {
  const row = await db
    .insertInto('streams')
    .values({
      realm_id: s.realmId,
      name: s.name,
      name_key: nameKey(s.name),
      description: s.description,
      rendered_description: s.renderedDescription,
      date_created: s.dateCreated,
      creator_id: s.creatorId,
      invite_only: s.inviteOnly ? 1 : 0,
      is_web_public: s.isWebPublic ? 1 : 0,
      history_public_to_subscribers: s.historyPublicToSubscribers ? 1 : 0,
      message_retention_days: s.messageRetentionDays,
      folder_id: s.folderId,
      topics_policy: s.topicsPolicy,
      group_settings: JSON.stringify(s.groups),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toStream(row);
}

export async function updateStream(db: Db, id: number, changes: Partial<Omit<Stream, 'id' | 'realmId'>>): Promise<void> {
  const v: Updateable<StreamTable> = {};
  const flag = (b: boolean) => (b ? 1 : 0);
  if (changes.name !== undefined) (v.name = changes.name), (v.name_key = nameKey(changes.name));
  if (changes.description !== undefined) v.description = changes.description;
  if (changes.renderedDescription !== undefined) v.rendered_description = changes.renderedDescription;
  if (changes.inviteOnly !== undefined) v.invite_only = flag(changes.inviteOnly);
  if (changes.isWebPublic !== undefined) v.is_web_public = flag(changes.isWebPublic);
  if (changes.historyPublicToSubscribers !== undefined) v.history_public_to_subscribers = flag(changes.historyPublicToSubscribers);
  if (changes.messageRetentionDays !== undefined) v.message_retention_days = changes.messageRetentionDays;
  if (changes.isArchived !== undefined) v.is_archived = flag(changes.isArchived);
  if (changes.folderId !== undefined) v.folder_id = changes.folderId;
  if (changes.topicsPolicy !== undefined) v.topics_policy = changes.topicsPolicy;
  if (changes.firstMessageId !== undefined) v.first_message_id = changes.firstMessageId;
  if (changes.groups !== undefined) v.group_settings = JSON.stringify(changes.groups);
  if (Object.keys(v).length) await db.updateTable('streams').set(v).where('id', '=', id).execute();
}

// After a channel's first message: concurrent first messages (PostgreSQL) leave the smallest id.
export async function noteFirstMessageId(db: Db, id: number, messageId: number): Promise<void> {
  await db
    .updateTable('streams')
    .set({ first_message_id: messageId })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('first_message_id', 'is', null), eb('first_message_id', '>', messageId)]))
    .execute();
}

// Sending and reading look channels up by id or name: cached (src/store/cache.ts).
const streamsById = cacheMap<string, Stream | null>('streams');
const streamsByName = cacheMap<string, Stream | null>('streams');

export async function findStream(db: Db, realmId: number, id: number): Promise<Stream | undefined> {
  const stream = await cached(db, streamsById, `${realmId} ${id}`, async () => {
    const row = await db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    return row ? toStream(row) : null;
  });
  return stream ?? undefined;
}

// The channel's row as it is now, not from the cache; on PostgreSQL locked until the transaction ends (SQLite's
// writers are serialised already): for a read-modify-write of its group settings JSON, which two concurrent
// changes would otherwise overwrite.
export async function lockStream(db: Db, realmId: number, id: number): Promise<Stream | undefined> {
  let q = db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('id', '=', id);
  if (dialectOf(db) === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toStream(row);
}

export async function findStreamByName(db: Db, realmId: number, name: string): Promise<Stream | undefined> {
  const key = nameKey(name);
  const stream = await cached(db, streamsByName, `${realmId} ${key}`, async () => {
    const row = await db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('name_key', '=', key).executeTakeFirst();
    return row ? toStream(row) : null;
  });
  return stream ?? undefined;
}

const streamsByRealm = cacheMap<number, Stream[]>('streams');

export async function listStreams(db: Db, realmId: number): Promise<Stream[]> {
  return cached(db, streamsByRealm, realmId, async () => {
    const rows = await db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
    return rows.map(toStream);
  });
}

export async function listDefaultStreamIds(db: Db, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom('default_streams').select('stream_id').where('realm_id', '=', realmId).orderBy('stream_id').execute();
  return rows.map((r) => r.stream_id);
}

export async function setDefaultStream(db: Db, realmId: number, streamId: number, isDefault: boolean): Promise<boolean> {
  const exists = await db.selectFrom('default_streams').select('stream_id').where('realm_id', '=', realmId).where('stream_id', '=', streamId).executeTakeFirst();
  if (!!exists === isDefault) return false;
  if (isDefault) await db.insertInto('default_streams').values({ realm_id: realmId, stream_id: streamId }).execute();
  else await db.deleteFrom('default_streams').where('realm_id', '=', realmId).where('stream_id', '=', streamId).execute();
  return true;
}

// Rule 3 of §2.2: `empty_topic_only` needs every message of the channel in the empty topic.
export async function hasMessagesOutsideEmptyTopic(db: Db, streamId: number): Promise<boolean> {
  const row = await db.selectFrom('messages').select('id').where('stream_id', '=', streamId).where('topic', '<>', '').limit(1).executeTakeFirst();
  return row !== undefined;
}
