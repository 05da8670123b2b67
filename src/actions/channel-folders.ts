// Channel folders (feature level 389): administrators create and edit them; everyone may list them.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { invalidCharacterPosition } from '../lib/text.js';
import { renderMarkdown } from '../markdown/render.js';
import {
  channelFolderInUse, findChannelFolder, findChannelFolderByName, insertChannelFolder, listChannelFolders, updateChannelFolder, setChannelFolderOrder, type ChannelFolder,
} from '../store/channel-folders.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { isUniqueViolation } from '../store/tx.js';
import type { User } from '../store/users.js';
import { checkAdministrator } from './users.js';
import { inTransaction } from './transaction.js';
import { formatChannelFolder } from '../state/channel-folders.js';

const nameInUse = () => new ApiError('Channel folder name already in use');

// Surrounding white space is dropped (the reference server keeps it) so that names compare as people read them.
async function checkFolderName(db: Db, realm: Realm, raw: string, self?: number): Promise<string> {
  const name = raw.trim();
  if (!name) throw new ApiError("Channel folder name can't be empty.");
  const bad = invalidCharacterPosition(name);
  if (bad) throw new ApiError(`Invalid character in channel folder name, at position ${bad}.`);
  const other = await findChannelFolderByName(db, realm.id, name);
  if (other && other.id !== self) throw nameInUse();
  return name;
}

async function accessFolder(db: Db, realm: Realm, id: number): Promise<ChannelFolder> {
  const folder = await findChannelFolder(db, realm.id, id);
  if (!folder) throw new ApiError('Invalid channel folder ID');
  return folder;
}

export async function doCreateChannelFolder(app: App, realm: Realm, user: User, input: { name: string; description: string }): Promise<number> {
  checkAdministrator(user);
  try {
    return await inTransaction(app, async (tx, emit) => {
      const folder = await insertChannelFolder(tx, {
        realmId: realm.id,
        name: await checkFolderName(tx, realm, input.name),
        description: input.description,
        renderedDescription: renderMarkdown(input.description),
        creatorId: user.id,
        dateCreated: Math.floor(Date.now() / 1000),
      });
      emit(realm.id, { type: 'channel_folder', op: 'add', channel_folder: formatChannelFolder(folder) }, null);
      return folder.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameInUse();
    throw err;
  }
}

// One update event per changed property group, as the reference server sends them.
export async function doUpdateChannelFolder(
  app: App,
  realm: Realm,
  user: User,
  id: number,
  input: { name?: string; description?: string; isArchived?: boolean },
): Promise<void> {
  checkAdministrator(user);
  try {
    await inTransaction(app, async (tx, emit) => {
      const folder = await accessFolder(tx, realm, id);
      const update = (data: Record<string, unknown>) => emit(realm.id, { type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data }, null);
      if (input.name !== undefined && input.name.trim() !== folder.name) {
        const name = await checkFolderName(tx, realm, input.name, folder.id);
        await updateChannelFolder(tx, folder.id, { name });
        update({ name });
      }
      if (input.description !== undefined && input.description !== folder.description) {
        const rendered = renderMarkdown(input.description);
        await updateChannelFolder(tx, folder.id, { description: input.description, renderedDescription: rendered });
        update({ description: input.description, rendered_description: rendered });
      }
      if (input.isArchived !== undefined && input.isArchived !== folder.isArchived) {
        if (input.isArchived && (await channelFolderInUse(tx, folder.id))) {
          throw new ApiError('You need to remove all the channels from this folder to archive it.');
        }
        await updateChannelFolder(tx, folder.id, { isArchived: input.isArchived });
        update({ is_archived: input.isArchived });
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameInUse();
    throw err;
  }
}

export async function accessChannelFolders(app: App, realm: Realm, includeArchived: boolean): Promise<Record<string, unknown>[]> {
  return (await listChannelFolders(app.db, realm.id, { includeArchived })).map(formatChannelFolder);
}

// PATCH /channel_folders (feature level 414): the order of every folder of the organization, archived ones too.
export async function doReorderChannelFolders(app: App, realm: Realm, user: User, order: number[]): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const ids = (await listChannelFolders(tx, realm.id, { includeArchived: true })).map((f) => f.id);
    if (order.length !== ids.length || new Set(order).size !== order.length || !order.every((id) => ids.includes(id))) throw new ApiError('Invalid order mapping.');
    await setChannelFolderOrder(tx, order);
    emit(realm.id, { type: 'channel_folder', op: 'reorder', order }, null);
  });
}
