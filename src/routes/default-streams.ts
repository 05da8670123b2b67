import { Type } from '@sinclair/typebox';
import {
  doAddDefaultStream, doCreateDefaultStreamGroup, doRemoveDefaultStream, doRemoveDefaultStreamGroup, doUpdateDefaultStreamGroup,
  doUpdateDefaultStreamGroupChannels,
} from '../actions/default-streams.js';
import { int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';

const streamNames = json(Type.Array(Type.String()), { maxItems: LIMITS.channelsPerRequest });
const done = async (p: Promise<void>) => {
  await p;
};

export const defaultStreamRoutes = [
  route({
    method: 'POST', path: '/default_streams', auth: 'user', summary: 'Make a channel a default channel (administrators)',
    params: { stream_id: int() }, handler: ({ app, realm, user, params }) => done(doAddDefaultStream(app, realm, user, params.stream_id)),
  }),
  route({
    method: 'DELETE', path: '/default_streams', auth: 'user', summary: 'Remove a default channel (administrators)',
    params: { stream_id: int() }, handler: ({ app, realm, user, params }) => done(doRemoveDefaultStream(app, realm, user, params.stream_id)),
  }),
  route({
    method: 'POST', path: '/default_stream_groups/create', auth: 'user', summary: 'Create a default channel group (administrators)',
    params: { group_name: str(), description: str(), stream_names: streamNames },
    handler: ({ app, realm, user, params }) => done(doCreateDefaultStreamGroup(app, realm, user, params.group_name, params.description, params.stream_names)),
  }),
  route({
    method: 'PATCH', path: '/default_stream_groups/{group_id}', auth: 'user', summary: 'Rename or describe a default channel group (administrators)',
    params: { group_id: int(), new_group_name: str().optional(), new_description: str().optional() },
    handler: ({ app, realm, user, params }) => done(doUpdateDefaultStreamGroup(app, realm, user, params.group_id, { name: params.new_group_name, description: params.new_description })),
  }),
  route({
    method: 'PATCH', path: '/default_stream_groups/{group_id}/streams', auth: 'user', summary: "Add channels to or remove them from a default channel group (administrators)",
    params: { group_id: int(), op: str(), stream_names: streamNames },
    handler: ({ app, realm, user, params }) => done(doUpdateDefaultStreamGroupChannels(app, realm, user, params.group_id, params.op, params.stream_names)),
  }),
  route({
    method: 'DELETE', path: '/default_stream_groups/{group_id}', auth: 'user', summary: 'Delete a default channel group (administrators)',
    params: { group_id: int() }, handler: ({ app, realm, user, params }) => done(doRemoveDefaultStreamGroup(app, realm, user, params.group_id)),
  }),
];
