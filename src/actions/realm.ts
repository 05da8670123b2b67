// PATCH /realm: organization settings. Administrators may change them, owners alone the ones the reference
// server reserves to owners. Every value is checked before anything is written, so a request applies whole.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { checkExpected, checkGroupSetting, normalize, sameValue } from '../permissions/group-settings.js';
import { hasMetadataAccess } from '../permissions/channels.js';
import { resolveGroupSetting, type GroupSettingValue } from '../permissions/groups.js';
import { REALM_GROUP_SETTING_NAMES, realmSettings } from '../state/realm.js';
import { GIF_RATING_POLICY_OPTIONS, REALM_PERMISSION_SETTINGS, VIDEO_CHAT_PROVIDERS, type RealmGroupSettingName } from '../state/realm-data.js';
import { LANGUAGES } from '../state/user-settings-data.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { findRealm, lockRealm, updateRealm, type Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { findSubscription } from '../store/subscriptions.js';
import { ROLE, type User } from '../store/users.js';
import { viewerOf } from './channels.js';
import { syncFullMembers } from './full-members.js';
import { nowSeconds } from '../app.js';
import { inTransaction } from './transaction.js';
import { checkAdministrator } from './users.js';

export type RealmSettingKind =
  | { kind: 'bool' }
  | { kind: 'int'; min?: number }
  | { kind: 'intEnum'; values: readonly number[]; message?: (v: number) => string }
  | { kind: 'strEnum'; values: readonly string[] }
  | { kind: 'text'; maxLength?: number }
  | { kind: 'language' }
  // A number of seconds, or "unlimited" (null).
  | { kind: 'timeLimit' }
  // A number of days, or "unlimited" (-1).
  | { kind: 'retention' }
  | { kind: 'jitsi' }
  // A channel id, or a negative number for none (stored as null, sent as -1).
  | { kind: 'channel'; private?: boolean };

const bool: RealmSettingKind = { kind: 'bool' };

export const REALM_NAME_MAX_LENGTH = 40;
export const REALM_DESCRIPTION_MAX_LENGTH = 1000;
const JITSI_URL_MAX_LENGTH = 200;

// The settings of REALM_SETTING_DEFAULTS a client may change. Left out: push_notifications_enabled and
// owner_full_content_access (kept by the server), icons and logos (their own upload endpoints), the demo
// deletion date, and media_preview_size (its allowed values are not known here).
export const REALM_PLAIN_SETTINGS: Record<string, RealmSettingKind> = {
  allow_message_editing: bool,
  avatar_changes_disabled: bool,
  default_avatar_source: { kind: 'strEnum', values: ['G', 'J'] },
  default_code_block_language: { kind: 'text' },
  default_language: { kind: 'language' },
  digest_emails_enabled: bool,
  digest_weekday: { kind: 'intEnum', values: [0, 1, 2, 3, 4, 5, 6] },
  disallow_disposable_email_addresses: bool,
  email_changes_disabled: bool,
  emails_restricted_to_domains: bool,
  enable_guest_user_dm_warning: bool,
  enable_guest_user_indicator: bool,
  enable_read_receipts: bool,
  enable_spectator_access: bool,
  gif_rating_policy: { kind: 'intEnum', values: Object.values(GIF_RATING_POLICY_OPTIONS).map((o) => o.id), message: (v) => `Invalid gif_rating_policy ${v}` },
  inline_image_preview: bool,
  inline_url_embed_preview: bool,
  invite_required: bool,
  jitsi_server_url: { kind: 'jitsi' },
  message_content_allowed_in_email_notifications: bool,
  message_content_delete_limit_seconds: { kind: 'timeLimit' },
  message_content_edit_limit_seconds: { kind: 'timeLimit' },
  message_edit_history_visibility_policy: { kind: 'strEnum', values: ['all', 'moves', 'none'] },
  message_retention_days: { kind: 'retention' },
  move_messages_between_streams_limit_seconds: { kind: 'timeLimit' },
  move_messages_within_stream_limit_seconds: { kind: 'timeLimit' },
  name_changes_disabled: bool,
  org_type: { kind: 'intEnum', values: [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000] },
  require_e2ee_push_notifications: bool,
  require_unique_names: bool,
  send_channel_events_messages: bool,
  send_welcome_emails: bool,
  topics_policy: { kind: 'strEnum', values: ['allow_empty_topic', 'disable_empty_topic'] },
  video_chat_provider: { kind: 'intEnum', values: Object.values(VIDEO_CHAT_PROVIDERS).map((p) => p.id), message: (v) => `Invalid video_chat_provider ${v}` },
  waiting_period_threshold: { kind: 'int', min: 0 },
  want_advertise_in_communities_directory: bool,
  welcome_message_custom_text: { kind: 'text', maxLength: 8000 },
  moderation_request_channel_id: { kind: 'channel', private: true },
  new_stream_announcements_stream_id: { kind: 'channel' },
  signup_announcements_stream_id: { kind: 'channel' },
  zulip_update_announcements_stream_id: { kind: 'channel' },
};

// What the reference server lets only owners change.
const OWNER_ONLY = new Set([
  'invite_required', 'emails_restricted_to_domains', 'disallow_disposable_email_addresses', 'waiting_period_threshold', 'message_retention_days',
  'create_multiuse_invite_group', 'can_create_groups', 'can_invite_users_group', 'can_manage_all_groups', 'can_manage_billing_group',
]);

export interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export interface RealmUpdateInput {
  name?: string;
  description?: string;
  settings: Record<string, unknown>;
  groups: Partial<Record<RealmGroupSettingName, GroupSettingUpdate>>;
}

const badValue = (name: string, value: unknown) =>
  new ApiError(`Bad value for '${name}': ${value}`, 'REQUEST_VARIABLE_INVALID', 400, { var_name: name, bad_value: value });

function positiveOr(name: string, raw: unknown, special: unknown): unknown {
  if (raw === 'unlimited') return special;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  throw badValue(name, raw);
}

async function checkChannel(tx: Tx, realm: Realm, user: User, raw: number, mustBePrivate: boolean): Promise<number | null> {
  if (raw < 0) return null;
  const stream = await findStream(tx, realm.id, raw);
  const sub = stream && (await findSubscription(tx, user.id, stream.id));
  if (!stream || stream.isArchived || !hasMetadataAccess(await viewerOf(tx, user), stream, sub)) throw new ApiError('Invalid channel ID');
  if (mustBePrivate && !stream.inviteOnly) throw new ApiError('Moderation request channel must be private.');
  return stream.id;
}

// The value to store, in the form realmSettings() and the register block read.
async function checkPlain(tx: Tx, realm: Realm, user: User, name: string, raw: unknown): Promise<unknown> {
  const kind = REALM_PLAIN_SETTINGS[name];
  switch (kind.kind) {
    case 'intEnum':
      if (!kind.values.includes(raw as number)) throw new ApiError(kind.message ? kind.message(raw as number) : `Invalid ${name}`);
      return raw;
    case 'strEnum':
      if (!kind.values.includes(raw as string)) throw new ApiError(`Invalid ${name}`);
      return raw;
    case 'language':
      if (!LANGUAGES.some((l) => l.code === raw)) throw new ApiError(`Invalid language '${raw}'`);
      return raw;
    case 'timeLimit':
      return positiveOr(name, raw, null);
    case 'retention':
      return positiveOr(name, raw, -1);
    case 'jitsi': {
      if (raw === 'default') return null;
      const url = String(raw);
      let ok = url.length <= JITSI_URL_MAX_LENGTH;
      try {
        ok &&= ['http:', 'https:'].includes(new URL(url).protocol);
      } catch {
        ok = false;
      }
      if (!ok) throw new ApiError('jitsi_server_url is not an allowed_type');
      return url;
    }
    case 'channel':
      return checkChannel(tx, realm, user, raw as number, !!kind.private);
    default:
      return raw;
  }
}

// Announced the way the reference server announces each: a few settings travel in update_dict events.
function settingEvent(name: string, value: unknown): Record<string, unknown> {
  if (name === 'allow_message_editing' || name === 'message_content_edit_limit_seconds') {
    return { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } };
  }
  if (name === 'topics_policy') {
    return { type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: value, mandatory_topics: value === 'disable_empty_topic' } };
  }
  return { type: 'realm', op: 'update', property: name, value };
}

function checkRights(user: User, input: RealmUpdateInput): void {
  checkAdministrator(user);
  const asked = [...Object.keys(input.settings), ...Object.keys(input.groups)];
  if (user.role !== ROLE.owner && asked.some((name) => OWNER_ONLY.has(name))) {
    throw new ApiError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  }
}

// Returns the changed values, as the reference server does: strings as "updated", other values as set.
export async function doUpdateRealm(app: App, realmIn: Realm, user: User, input: RealmUpdateInput): Promise<Record<string, unknown>> {
  checkRights(user, input);
  return inTransaction(app, async (tx, emit) => {
    // Read again inside the transaction: the request's copy may predate a concurrent change.
    await lockRealm(tx, app.dialect, realmIn.id);
    const realm = (await findRealm(tx, realmIn.id))!;
    const current = realmSettings(realm) as Record<string, unknown>;
    const systemGroups = await systemGroupIds(tx, realm.id);
    const nobody = systemGroups.get('role:nobody')!;
    const changed: Record<string, unknown> = {};
    const columns: { name?: string; description?: string } = {};
    const events: Record<string, unknown>[] = [];

    if (input.name !== undefined && input.name.trim() !== realm.name) {
      const name = input.name.trim();
      if (!name) throw new ApiError("Organization name can't be empty.");
      columns.name = name;
    }
    if (input.description !== undefined && input.description !== realm.description) columns.description = input.description;
    for (const [property, value] of Object.entries(columns)) {
      changed[property] = 'updated';
      events.push({ type: 'realm', op: 'update', property, value });
    }

    const settings = { ...realm.settings };
    for (const [name, raw] of Object.entries(input.settings)) {
      const value = await checkPlain(tx, realm, user, name, raw);
      if (value === current[name]) continue;
      settings[name] = value;
      const sent = REALM_PLAIN_SETTINGS[name].kind === 'channel' ? (value ?? -1) : value;
      changed[name] = typeof sent === 'string' ? 'updated' : sent;
      events.push(settingEvent(name, sent));
    }

    for (const name of REALM_GROUP_SETTING_NAMES) {
      const update = input.groups[name];
      if (!update) continue;
      const now = resolveGroupSetting(current[name], systemGroups);
      checkExpected(name, now, update.old, nobody);
      if (sameValue(now, update.new, nobody)) continue;
      // Normalized first: checkGroupSetting cannot check an empty anonymous group, which stands for role:nobody.
      const value = await checkGroupSetting(tx, realm.id, name, REALM_PERMISSION_SETTINGS[name], normalize(update.new, nobody), systemGroups);
      settings[name] = value;
      changed[name] = value;
      events.push({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } });
    }

    if (!events.length) return {};
    await updateRealm(tx, realm.id, { ...columns, settings });
    for (const event of events) emit(realm.id, event, null);
    if ('waiting_period_threshold' in changed) await syncFullMembers(tx, emit, { ...realm, settings }, nowSeconds());
    return changed;
  });
}
