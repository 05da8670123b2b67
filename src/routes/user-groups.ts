import { Type } from '@sinclair/typebox';
import { groupRecords } from '../state/user-groups.js';
import { accessGroupMembers, accessGroupSubgroups, accessIsGroupMember, doChangeMembers, doChangeSubgroups } from '../actions/user-group-members.js';
import { doCreateGroup, doDeactivateGroup, doUpdateGroup, GROUP_SETTINGS, type GroupSetting } from '../actions/user-groups.js';
import { bool, given, int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';

const members = json(Type.Array(Type.Integer()), { maxItems: LIMITS.groupMembersPerRequest });
const subgroups = json(Type.Array(Type.Integer()), { maxItems: LIMITS.groupSubgroupsPerRequest }).default([]);
const readForm = Object.fromEntries(GROUP_SETTINGS.map((s) => [s, json(Type.Unknown()).optional()]));
// The update form ({new, old}) is checked by the action, which names the setting in its error.
const updateForm = readForm;
const pick = <T>(params: Record<string, unknown>) => given(params, GROUP_SETTINGS) as Partial<Record<GroupSetting, T>>;

export const userGroupRoutes = [
  route({
    method: 'GET', path: '/user_groups', auth: 'user', summary: 'User groups of the organization',
    params: { include_deactivated_groups: bool().default(false) },
    handler: async ({ app, realm, params }) => ({ user_groups: await groupRecords(app.db, realm, params.include_deactivated_groups) }),
  }),
  route({
    method: 'POST', path: '/user_groups/create', auth: 'user', summary: 'Create a user group',
    params: { name: str(), description: str(), members, subgroups, ...readForm },
    handler: async ({ app, realm, user, params }) => ({
      group_id: await doCreateGroup(app, realm, user, {
        name: params.name, description: params.description, members: params.members, subgroups: params.subgroups, settings: pick(params),
      }),
    }),
  }),
  route({
    method: 'PATCH', path: '/user_groups/{user_group_id}', auth: 'user', summary: 'Update a user group',
    params: { user_group_id: int(), name: str().optional(), description: str().optional(), deactivated: bool().optional(), ...updateForm },
    handler: async ({ app, realm, user, params }) => {
      await doUpdateGroup(app, realm, user, params.user_group_id, {
        name: params.name, description: params.description, deactivated: params.deactivated, settings: pick(params),
      });
    },
  }),
  route({
    method: 'POST', path: '/user_groups/{user_group_id}/deactivate', auth: 'user', summary: 'Deactivate a user group', params: { user_group_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeactivateGroup(app, realm, user, params.user_group_id);
    },
  }),
  route({
    method: 'POST', path: '/user_groups/{user_group_id}/members', auth: 'user', summary: 'Add or remove members',
    params: { user_group_id: int(), add: members.default([]), delete: members.default([]) },
    handler: async ({ app, realm, user, params }) => {
      await doChangeMembers(app, realm, user, params.user_group_id, params.add, params.delete);
    },
  }),
  route({
    method: 'GET', path: '/user_groups/{user_group_id}/members', auth: 'user', summary: 'Members of a user group',
    params: { user_group_id: int(), direct_member_only: bool().default(false) },
    handler: async ({ app, realm, params }) => ({ members: await accessGroupMembers(app, realm, params.user_group_id, params.direct_member_only) }),
  }),
  route({
    method: 'GET', path: '/user_groups/{user_group_id}/members/{user_id}', auth: 'user', summary: 'Whether a user is a member',
    params: { user_group_id: int(), user_id: int(), direct_member_only: bool().default(false) },
    handler: async ({ app, realm, user, params }) => ({
      is_user_group_member: await accessIsGroupMember(app, realm, user, params.user_group_id, params.user_id, params.direct_member_only),
    }),
  }),
  route({
    method: 'POST', path: '/user_groups/{user_group_id}/subgroups', auth: 'user', summary: 'Add or remove subgroups',
    params: { user_group_id: int(), add: subgroups, delete: subgroups },
    handler: async ({ app, realm, user, params }) => {
      await doChangeSubgroups(app, realm, user, params.user_group_id, params.add, params.delete);
    },
  }),
  route({
    method: 'GET', path: '/user_groups/{user_group_id}/subgroups', auth: 'user', summary: 'Subgroups of a user group',
    params: { user_group_id: int(), direct_subgroup_only: bool().default(false) },
    handler: async ({ app, realm, params }) => ({ subgroups: await accessGroupSubgroups(app, realm, params.user_group_id, params.direct_subgroup_only) }),
  }),
];
