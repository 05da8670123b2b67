// The channel_folders register block.
import { listChannelFolders, webPublicFolderIds, type ChannelFolder } from '../store/channel-folders.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';

// Register block: every folder, archived ones included, for users; folders of web-public channels for spectators.
export async function channelFoldersState(db: Db, realm: Realm, user: User | null): Promise<Record<string, unknown>> {
  const folders = user
    ? await listChannelFolders(db, realm.id, { includeArchived: true })
    : await listChannelFolders(db, realm.id, { includeArchived: true, ids: await webPublicFolderIds(db, realm.id) });
  return { channel_folders: folders.map(formatChannelFolder) };
}

export function formatChannelFolder(f: ChannelFolder): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    rendered_description: f.renderedDescription,
    creator_id: f.creatorId,
    date_created: f.dateCreated,
    is_archived: f.isArchived,
    order: f.order,
  };
}
