// Default channels (POST/DELETE /default_streams) and default channel groups (/default_stream_groups/…), which
// administrators set up for new users to pick from; the default_streams and default_stream_groups events go
// to every active user but guests, as on the reference server.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess, isGuest } from '../permissions/channels.js';
import type { Db, Tx } from '../store/db.js';
import {
  addGroupChannels, deleteDefaultStreamGroup, findDefaultStreamGroup, insertDefaultStreamGroup, listDefaultStreamGroups, removeGroupChannels,
  updateDefaultStreamGroup, type DefaultStreamGroup,
} from '../store/default-stream-groups.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { listDefaultStreamIds, setDefaultStream, type Stream } from '../store/streams.js';
import { listUsers, type User } from '../store/users.js';
import { emitDefaultStreams } from './channel-edit.js';
import { accessChannelById, accessChannelByName, viewerOf } from './channels.js';
import { inTransaction, type Emit } from './transaction.js';
import { isUniqueViolation } from '../store/tx.js';
import { checkAdministrator } from './users.js';
import { defaultStreamGroupsState } from '../state/default-streams.js';

// The reference's DefaultStreamGroup.MAX_NAME_LENGTH.
export const MAX_GROUP_NAME_LENGTH = 60;

async function accessReadableChannel(db: Db, realm: Realm, user: User, key: { id?: number; name?: string }): Promise<Stream> {
  const viewer = await viewerOf(db, user);
  const { stream, sub } = key.id !== undefined ? await accessChannelById(db, realm, viewer, key.id) : await accessChannelByName(db, realm, viewer, key.name!);
  if (!hasContentAccess(viewer, stream, sub)) throw key.id !== undefined ? new ApiError('Invalid channel ID') : new ApiError(`Invalid channel name '${key.name}'`);
  return stream;
}

export async function doAddDefaultStream(app: App, realm: Realm, user: User, streamId: number): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const stream = await accessReadableChannel(tx, realm, user, { id: streamId });
    if (stream.inviteOnly) throw new ApiError('Private channels cannot be made default.');
    if (stream.isArchived) throw new ApiError('An archived channel cannot be a default channel.');
    if (await setDefaultStream(tx, realm.id, stream.id, true)) await emitDefaultStreams(tx, realm, emit, await systemGroupIds(tx, realm.id));
  });
}

export async function doRemoveDefaultStream(app: App, realm: Realm, user: User, streamId: number): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const viewer = await viewerOf(tx, user);
    const { stream } = await accessChannelById(tx, realm, viewer, streamId);
    await setDefaultStream(tx, realm.id, stream.id, false);
    await emitDefaultStreams(tx, realm, emit, await systemGroupIds(tx, realm.id));
  });
}

async function notifyGroups(tx: Tx, emit: Emit, realm: Realm): Promise<void> {
  const users = (await listUsers(tx, realm.id)).filter((u) => u.isActive && !isGuest(u)).map((u) => u.id);
  emit(realm.id, { type: 'default_stream_groups', default_stream_groups: await defaultStreamGroupsState(tx, realm) }, users);
}

function checkGroupName(name: string): void {
  if (name.trim() === '') throw new ApiError(`Invalid default channel group name '${name}'`);
  if ([...name].length > MAX_GROUP_NAME_LENGTH) throw new ApiError(`Default channel group name too long (limit: ${MAX_GROUP_NAME_LENGTH} characters)`);
}

async function accessGroup(db: Db, realm: Realm, id: number): Promise<DefaultStreamGroup> {
  const group = await findDefaultStreamGroup(db, realm.id, id);
  if (!group) throw new ApiError(`Default channel group with id '${id}' does not exist.`);
  return group;
}

async function channelsByName(db: Db, realm: Realm, user: User, names: string[]): Promise<Stream[]> {
  const out: Stream[] = [];
  for (const name of names) out.push(await accessReadableChannel(db, realm, user, { name }));
  return out;
}

export async function doCreateDefaultStreamGroup(app: App, realm: Realm, user: User, name: string, description: string, streamNames: string[]): Promise<void> {
  checkAdministrator(user);
  // Two creations of one name at once: the second meets the unique index.
  const exists = () => new ApiError(`Default channel group '${name}' already exists`);
  await inTransaction(app, async (tx, emit) => {
    const streams = await channelsByName(tx, realm, user, streamNames);
    const defaults = new Set(await listDefaultStreamIds(tx, realm.id));
    for (const s of streams) if (defaults.has(s.id)) throw new ApiError(`'${s.name}' is a default channel and cannot be added to '${name}'`);
    checkGroupName(name);
    if ((await listDefaultStreamGroups(tx, realm.id)).some((g) => g.name === name)) throw exists();
    await insertDefaultStreamGroup(tx, realm.id, name, description, [...new Set(streams.map((s) => s.id))]);
    await notifyGroups(tx, emit, realm);
  }).catch((err) => {
    throw isUniqueViolation(err) ? exists() : err;
  });
}

export async function doUpdateDefaultStreamGroup(app: App, realm: Realm, user: User, id: number, input: { name?: string; description?: string }): Promise<void> {
  checkAdministrator(user);
  if (!input.name && !input.description) throw new ApiError('You must pass "new_description" or "new_group_name".');
  await inTransaction(app, async (tx, emit) => {
    const group = await accessGroup(tx, realm, id);
    if (input.name) {
      if (group.name === input.name) throw new ApiError(`This default channel group is already named '${input.name}'`);
      checkGroupName(input.name);
      if ((await listDefaultStreamGroups(tx, realm.id)).some((g) => g.name === input.name)) throw new ApiError(`Default channel group '${input.name}' already exists`);
    }
    await updateDefaultStreamGroup(tx, group.id, { ...(input.name ? { name: input.name } : {}), ...(input.description ? { description: input.description } : {}) });
    await notifyGroups(tx, emit, realm);
  });
}

export async function doUpdateDefaultStreamGroupChannels(app: App, realm: Realm, user: User, id: number, op: string, streamNames: string[]): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const group = await accessGroup(tx, realm, id);
    const streams = await channelsByName(tx, realm, user, streamNames);
    const present = new Set(group.streamIds);
    if (op === 'add') {
      const defaults = new Set(await listDefaultStreamIds(tx, realm.id));
      for (const s of streams) {
        if (defaults.has(s.id)) throw new ApiError(`'${s.name}' is a default channel and cannot be added to '${group.name}'`);
        if (present.has(s.id)) throw new ApiError(`Channel '${s.name}' is already present in default channel group '${group.name}'`);
      }
      await addGroupChannels(tx, group.id, [...new Set(streams.map((s) => s.id))]);
    } else if (op === 'remove') {
      for (const s of streams) if (!present.has(s.id)) throw new ApiError(`Channel '${s.name}' is not present in default channel group '${group.name}'`);
      await removeGroupChannels(tx, group.id, streams.map((s) => s.id));
    } else throw new ApiError('Invalid value for "op". Specify one of "add" or "remove".');
    await notifyGroups(tx, emit, realm);
  });
}

export async function doRemoveDefaultStreamGroup(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const group = await accessGroup(tx, realm, id);
    await deleteDefaultStreamGroup(tx, group.id);
    await notifyGroups(tx, emit, realm);
  });
}
