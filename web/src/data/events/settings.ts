// Events about settings and personal data: user settings, the organization's name and emoji, drafts and
// scheduled messages.
import type { Draft as SavedDraft, RealmEmoji, ScheduledMessage, ServerEvent } from '../../api/types';
import type { Draft } from '../draft';

function onUserSettings(d: Draft, e: ServerEvent): void {
  if (e.op === 'update') d.set('settings', { ...d.get('settings'), [e.property as string]: e.value });
}

// Older clients' events for the same settings.
function onLegacySetting(d: Draft, e: ServerEvent): void {
  if (typeof e.setting_name === 'string') d.set('settings', { ...d.get('settings'), [e.setting_name]: e.setting });
}

function onRealm(d: Draft, e: ServerEvent): void {
  const realm = d.get('realm');
  const data: Record<string, unknown> = e.op === 'update' ? { [e.property as string]: e.value } : e.op === 'update_dict' ? ((e.data as Record<string, unknown>) ?? {}) : {};
  const next = { ...realm };
  if (typeof data.name === 'string') next.name = data.name;
  if ('message_content_edit_limit_seconds' in data) next.editLimitSeconds = data.message_content_edit_limit_seconds as number | null;
  if ('allow_message_editing' in data) next.allowEditing = !!data.allow_message_editing;
  if ('moderation_request_channel_id' in data) next.moderationChannelId = Number(data.moderation_request_channel_id);
  d.set('realm', next);
  // Every setting, as the settings overlay shows them (data of update_dict: name, icon_url, can_*_group, …).
  if (e.op === 'update' || e.op === 'update_dict') d.set('realmSettings', { ...d.get('realmSettings'), ...data });
}

function onRealmEmoji(d: Draft, e: ServerEvent): void {
  if (e.op === 'update') d.set('realmEmoji', new Map(Object.entries(e.realm_emoji as Record<string, RealmEmoji>)));
}

function onDrafts(d: Draft, e: ServerEvent): void {
  if (e.op === 'add') for (const x of e.drafts as SavedDraft[]) d.mut('drafts').set(x.id, x);
  else if (e.op === 'update') d.mut('drafts').set((e.draft as SavedDraft).id, e.draft as SavedDraft);
  else if (e.op === 'remove') d.mut('drafts').delete(e.draft_id as number);
}

function onScheduled(d: Draft, e: ServerEvent): void {
  if (e.op === 'add') for (const x of e.scheduled_messages as ScheduledMessage[]) d.mut('scheduled').set(x.scheduled_message_id, x);
  else if (e.op === 'update') {
    const change = e.scheduled_message as Partial<ScheduledMessage> & { scheduled_message_id: number };
    const old = d.get('scheduled').get(change.scheduled_message_id);
    if (old) d.mut('scheduled').set(change.scheduled_message_id, { ...old, ...change });
  } else if (e.op === 'remove') d.mut('scheduled').delete(e.scheduled_message_id as number);
}

export const settingsEvents: Record<string, (d: Draft, e: ServerEvent) => void> = {
  user_settings: onUserSettings,
  update_display_settings: onLegacySetting,
  update_global_notifications: onLegacySetting,
  realm: onRealm,
  realm_emoji: onRealmEmoji,
  drafts: onDrafts,
  scheduled_messages: onScheduled,
};
