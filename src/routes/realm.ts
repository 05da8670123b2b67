import { Type } from '@sinclair/typebox';
import {
  doUpdateRealm, REALM_DESCRIPTION_MAX_LENGTH, REALM_NAME_MAX_LENGTH, REALM_PLAIN_SETTINGS, type GroupSettingUpdate, type RealmSettingKind,
} from '../actions/realm.js';
import { bool, given, int, json, str, type Param } from '../http/params.js';
import { route } from '../http/route.js';
import { REALM_GROUP_SETTING_NAMES } from '../state/realm.js';
import type { RealmGroupSettingName } from '../state/realm-data.js';

// How each kind of setting arrives: booleans and integers as JSON, strings raw, and the settings that take a
// number or a keyword ("unlimited", "default") as JSON or as the bare keyword.
function paramFor(kind: RealmSettingKind): Param<unknown, false> {
  switch (kind.kind) {
    case 'bool':
      return bool().optional();
    case 'int':
      return int({ min: kind.min }).optional();
    case 'intEnum':
    case 'channel':
      return int().optional();
    case 'strEnum':
    case 'language':
      return str().optional();
    case 'text':
      return str({ maxLength: kind.maxLength }).optional();
    case 'timeLimit':
    case 'retention':
      return json(Type.Union([Type.Integer(), Type.String()]), { raw: true }).optional();
    case 'jitsi':
      return json(Type.String(), { raw: true }).optional();
  }
}

const groupValue = Type.Union([
  Type.Integer(),
  Type.Object({ direct_members: Type.Array(Type.Integer()), direct_subgroups: Type.Array(Type.Integer()) }),
]);
const groupUpdate = json(Type.Object({ new: groupValue, old: Type.Optional(groupValue) })).optional();

const settingParams: Record<string, Param<unknown, false>> = Object.fromEntries(
  Object.entries(REALM_PLAIN_SETTINGS).map(([name, kind]) => [name, name === 'gif_rating_policy' ? paramFor(kind).alias('giphy_rating') : paramFor(kind)]),
);
const groupParams: Record<string, Param<unknown, false>> = Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((name) => [name, groupUpdate]));

const params = {
  name: str({ maxLength: REALM_NAME_MAX_LENGTH }).optional(),
  description: str({ maxLength: REALM_DESCRIPTION_MAX_LENGTH }).optional(),
  ...settingParams,
  ...groupParams,
};


export const realmRoutes = [
  route({
    method: 'PATCH',
    path: '/realm',
    auth: 'user',
    summary: "Change the organization's settings (administrators; some settings owners only)",
    params,
    handler: ({ app, realm, user, params: p }) => {
      const values = p as Record<string, unknown>;
      return doUpdateRealm(app, realm, user, {
        name: values.name as string | undefined,
        description: values.description as string | undefined,
        settings: given(values, Object.keys(REALM_PLAIN_SETTINGS)),
        groups: given(values, REALM_GROUP_SETTING_NAMES) as Partial<Record<RealmGroupSettingName, GroupSettingUpdate>>,
      });
    },
  }),
];
