// Channel folders of an organization. Names are unique case-insensitively through name_key.
import type { Selectable, Updateable } from 'kysely';
import type { Db } from './db.js';
import type { ChannelFolderTable } from './schema.js';

export interface ChannelFolder {
  id: number;
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  creatorId: number | null;
  dateCreated: number;
  isArchived: boolean;
  order: number;
}

export const folderNameKey = (name: string) => name.trim().toLowerCase();

function toFolder(r: Selectable<ChannelFolderTable>): ChannelFolder {
  return {
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    description: r.description,
    renderedDescription: r.rendered_description,
    creatorId: r.creator_id,
    dateCreated: r.date_created,
    isArchived: r.is_archived === 1,
    order: r.order,
  };
}

// A new folder goes last: its order is its id, as the reference server does.
export async function insertChannelFolder(
  db: Db,
  f: { realmId: number; name: string; description: string; renderedDescription: string; creatorId: number; dateCreated: number },
): Promise<ChannelFolder> {
  const row = await db
    .insertInto('channel_folders')
    .values({
      realm_id: f.realmId,
      name: f.name,
      name_key: folderNameKey(f.name),
      description: f.description,
      rendered_description: f.renderedDescription,
      creator_id: f.creatorId,
      date_created: f.dateCreated,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db.updateTable('channel_folders').set({ order: row.id }).where('id', '=', row.id).execute();
  return toFolder({ ...row, order: row.id });
}

export async function findChannelFolder(db: Db, realmId: number, id: number): Promise<ChannelFolder | undefined> {
  const row = await db.selectFrom('channel_folders').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return row && toFolder(row);
}

export async function findChannelFolderByName(db: Db, realmId: number, name: string): Promise<ChannelFolder | undefined> {
  const row = await db.selectFrom('channel_folders').selectAll().where('realm_id', '=', realmId).where('name_key', '=', folderNameKey(name)).executeTakeFirst();
  return row && toFolder(row);
}

export async function listChannelFolders(db: Db, realmId: number, opts: { includeArchived: boolean; ids?: number[] }): Promise<ChannelFolder[]> {
  let q = db.selectFrom('channel_folders').selectAll().where('realm_id', '=', realmId);
  if (!opts.includeArchived) q = q.where('is_archived', '=', 0);
  if (opts.ids) {
    if (!opts.ids.length) return [];
    q = q.where('id', 'in', opts.ids);
  }
  const rows = await q.orderBy('order').orderBy('id').execute();
  return rows.map(toFolder);
}

export async function updateChannelFolder(
  db: Db,
  id: number,
  changes: Partial<Pick<ChannelFolder, 'name' | 'description' | 'renderedDescription' | 'isArchived'>>,
): Promise<void> {
  const v: Updateable<ChannelFolderTable> = {};
  if (changes.name !== undefined) (v.name = changes.name), (v.name_key = folderNameKey(changes.name));
  if (changes.description !== undefined) v.description = changes.description;
  if (changes.renderedDescription !== undefined) v.rendered_description = changes.renderedDescription;
  if (changes.isArchived !== undefined) v.is_archived = changes.isArchived ? 1 : 0;
  if (Object.keys(v).length) await db.updateTable('channel_folders').set(v).where('id', '=', id).execute();
}

// Archived channels count too: unarchiving one must not leave it in an archived folder.
export async function channelFolderInUse(db: Db, folderId: number): Promise<boolean> {
  const row = await db.selectFrom('streams').select('id').where('folder_id', '=', folderId).limit(1).executeTakeFirst();
  return row !== undefined;
}

// Folders holding web-public channels: the ones spectators may see.
export async function webPublicFolderIds(db: Db, realmId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('streams')
    .select('folder_id')
    .distinct()
    .where('realm_id', '=', realmId)
    .where('is_web_public', '=', 1)
    .where('folder_id', 'is not', null)
    .execute();
  return rows.map((r) => r.folder_id!);
}

// The folders' order, as listed (their positions).
export async function setChannelFolderOrder(db: Db, ids: number[]): Promise<void> {
  for (const [position, id] of ids.entries()) await db.updateTable('channel_folders').set({ order: position }).where('id', '=', id).execute();
}
