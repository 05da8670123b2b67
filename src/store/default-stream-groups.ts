import type { Db, Tx } from './db.js';

export interface DefaultStreamGroup {
  id: number;
  name: string;
  description: string;
  streamIds: number[];
}

export async function listDefaultStreamGroups(db: Db, realmId: number): Promise<DefaultStreamGroup[]> {
  const groups = await db.selectFrom('default_stream_groups').select(['id', 'name', 'description']).where('realm_id', '=', realmId).orderBy('name').execute();
  if (!groups.length) return [];
  const members = await db
    .selectFrom('default_stream_group_channels')
    .select(['group_id', 'stream_id'])
    .where('group_id', 'in', groups.map((g) => g.id))
    .orderBy('stream_id')
    .execute();
  return groups.map((g) => ({ ...g, streamIds: members.filter((m) => m.group_id === g.id).map((m) => m.stream_id) }));
}

export async function findDefaultStreamGroup(db: Db, realmId: number, id: number): Promise<DefaultStreamGroup | undefined> {
  return (await listDefaultStreamGroups(db, realmId)).find((g) => g.id === id);
}

export async function insertDefaultStreamGroup(tx: Tx, realmId: number, name: string, description: string, streamIds: number[]): Promise<number> {
  const { id } = await tx.insertInto('default_stream_groups').values({ realm_id: realmId, name, description }).returning('id').executeTakeFirstOrThrow();
  await addGroupChannels(tx, id, streamIds);
  return id;
}

export async function updateDefaultStreamGroup(tx: Tx, id: number, changes: { name?: string; description?: string }): Promise<void> {
  await tx.updateTable('default_stream_groups').set(changes).where('id', '=', id).execute();
}

export async function addGroupChannels(tx: Tx, groupId: number, streamIds: number[]): Promise<void> {
  if (streamIds.length) await tx.insertInto('default_stream_group_channels').values(streamIds.map((s) => ({ group_id: groupId, stream_id: s }))).execute();
}

export async function removeGroupChannels(tx: Tx, groupId: number, streamIds: number[]): Promise<void> {
  if (streamIds.length) await tx.deleteFrom('default_stream_group_channels').where('group_id', '=', groupId).where('stream_id', 'in', streamIds).execute();
}

export async function deleteDefaultStreamGroup(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('default_stream_group_channels').where('group_id', '=', id).execute();
  await tx.deleteFrom('default_stream_groups').where('id', '=', id).execute();
}
