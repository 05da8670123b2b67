import { Type } from '@sinclair/typebox';
import { doRemoveOwnProfileData, doUpdateOwnProfileData } from '../actions/profile-data.js';
import { accessProfileFields, doCreateProfileField, doDeleteProfileField, doReorderProfileFields, doUpdateProfileField } from '../actions/profile-fields.js';
import { bool, int, json, str } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';

const fieldData = json(Type.Record(Type.String(), Type.Unknown()));

export const ProfileDataItems = Type.Array(
  Type.Object({ id: Type.Integer(), value: Type.Union([Type.String(), Type.Array(Type.Integer()), Type.Null()]) }),
);

export const profileFieldRoutes = [
  route({
    method: 'GET', path: '/realm/profile_fields', auth: 'user', summary: "The organization's custom profile fields", params: {},
    handler: async ({ app, realm }) => ({ custom_fields: await accessProfileFields(app, realm) }),
  }),
  route({
    method: 'POST', path: '/realm/profile_fields', auth: 'user', summary: 'Create a custom profile field (administrators)',
    params: {
      field_type: int(),
      name: str().default(''),
      hint: str().default(''),
      field_data: fieldData.optional(),
      display_in_profile_summary: bool().default(false),
      required: bool().default(false),
      editable_by_user: bool().default(true),
    },
    handler: async ({ app, realm, user, params: p }) => ({
      id: await doCreateProfileField(app, realm, user, p.field_type, {
        name: p.name, hint: p.hint, fieldData: p.field_data, displayInProfileSummary: p.display_in_profile_summary,
        required: p.required, editableByUser: p.editable_by_user,
      }),
    }),
  }),
  route({
    method: 'PATCH', path: '/realm/profile_fields', auth: 'user', summary: 'Reorder the custom profile fields (administrators)',
    params: { order: json(Type.Array(Type.Integer()), { maxItems: LIMITS.profileFieldsPerRequest }) },
    handler: async ({ app, realm, user, params }) => {
      await doReorderProfileFields(app, realm, user, params.order);
    },
  }),
  route({
    method: 'PATCH', path: '/realm/profile_fields/{field_id}', auth: 'user', summary: 'Change a custom profile field (administrators)',
    params: {
      field_id: int(),
      name: str().optional(),
      hint: str().optional(),
      field_data: fieldData.optional(),
      display_in_profile_summary: bool().optional(),
      required: bool().optional(),
      editable_by_user: bool().optional(),
    },
    handler: async ({ app, realm, user, params: p }) => {
      await doUpdateProfileField(app, realm, user, p.field_id, {
        name: p.name, hint: p.hint, fieldData: p.field_data, displayInProfileSummary: p.display_in_profile_summary,
        required: p.required, editableByUser: p.editable_by_user,
      });
    },
  }),
  route({
    method: 'DELETE', path: '/realm/profile_fields/{field_id}', auth: 'user', summary: 'Delete a custom profile field and its values (administrators)',
    params: { field_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteProfileField(app, realm, user, params.field_id);
    },
  }),
  route({
    method: 'PATCH', path: '/users/me/profile_data', auth: 'user', summary: "Set the caller's custom profile field values",
    params: { data: json(ProfileDataItems, { maxItems: LIMITS.profileFieldsPerRequest }) },
    handler: async ({ app, realm, user, params }) => {
      await doUpdateOwnProfileData(app, realm, user, params.data);
    },
  }),
  route({
    method: 'DELETE', path: '/users/me/profile_data', auth: 'user', summary: "Clear some of the caller's custom profile field values",
    params: { data: json(Type.Array(Type.Integer()), { maxItems: LIMITS.profileFieldsPerRequest }) },
    handler: async ({ app, realm, user, params }) => {
      await doRemoveOwnProfileData(app, realm, user, params.data);
    },
  }),
];
