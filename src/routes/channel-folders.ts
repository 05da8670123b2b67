import { accessChannelFolders, doCreateChannelFolder, doReorderChannelFolders, doUpdateChannelFolder } from '../actions/channel-folders.js';
import { Type } from '@sinclair/typebox';
import { bool, int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { SERVER_LIMITS } from '../state/realm-data.js';

const name = str({ maxLength: SERVER_LIMITS.max_channel_folder_name_length });
const description = str({ maxLength: SERVER_LIMITS.max_channel_folder_description_length });

export const channelFolderRoutes = [
  route({
    method: 'POST',
    path: '/channel_folders/create',
    auth: 'user',
    summary: 'Create a channel folder (administrators)',
    params: { name, description: description.default('') },
    handler: async ({ app, realm, user, params }) => ({
      channel_folder_id: await doCreateChannelFolder(app, realm, user, { name: params.name, description: params.description }),
    }),
  }),
  route({
    method: 'GET',
    path: '/channel_folders',
    auth: 'user',
    summary: "The organization's channel folders",
    params: { include_archived: bool().default(false) },
    handler: async ({ app, realm, params }) => ({ channel_folders: await accessChannelFolders(app, realm, params.include_archived) }),
  }),
  route({
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    auth: 'user',
    summary: 'Rename, describe, archive or unarchive a channel folder (administrators)',
    params: { channel_folder_id: int(), name: name.optional(), description: description.optional(), is_archived: bool().optional() },
    handler: async ({ app, realm, user, params }) => {
      await doUpdateChannelFolder(app, realm, user, params.channel_folder_id, {
        name: params.name,
        description: params.description,
        isArchived: params.is_archived,
      });
    },
  }),
  route({
    method: 'PATCH',
    path: '/channel_folders',
    auth: 'user',
    summary: "Reorder the organization's channel folders (administrators)",
    params: { order: json(Type.Array(Type.Integer()), { maxItems: 1000 }) },
    handler: async ({ app, realm, user, params }) => {
      await doReorderChannelFolders(app, realm, user, params.order);
    },
  }),
];
