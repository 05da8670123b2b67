// The settings overlay's requests: each a call of the public API under /json/. The answers' effects reach the
// app as events (the data layer's reducers); what the API does not announce (invitations, uploaded files, API
// keys) the panels fetch with these and show as they come.
import { api, csrfToken, ApiError, NetworkError } from '../api/client';
import type { GroupSettingValue } from '../api/types';
import { state } from '../data/session';

export const updateSettings = (changes: Record<string, unknown>) => api.call('PATCH /settings', changes);
export const setSetting = (name: string, value: unknown) => updateSettings({ [name]: value });
export const changePassword = (oldPassword: string, newPassword: string) => api.call('PATCH /settings', { old_password: oldPassword, new_password: newPassword });
export const requestEmailChange = (email: string) => api.call('PATCH /settings', { email });
export const setProfileField = (id: number, value: string | number[] | null) => api.call('PATCH /users/me/profile_data', { data: [{ id, value }] });

// The reference web app asks for the password again before showing the key (POST /json/fetch_api_key).
export async function fetchApiKey(password: string): Promise<string> {
  const res: { api_key: string } = await api.call('POST /fetch_api_key', { username: state().me.deliveryEmail, password }, { passwordCheck: true });
  return res.api_key;
}

export const regenerateOwnKey = (): Promise<{ api_key: string }> => api.call('POST /users/me/api_key/regenerate', {});

// Multipart uploads (avatar, organization emoji, icon): the browser sets the form's boundary.
async function postForm(path: string, file: File): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.append('file', file, file.name);
  let res: Response;
  try {
    res = await fetch(`/json${path}`, { method: 'POST', body: form, credentials: 'same-origin', headers: { 'X-CSRFToken': csrfToken() } });
  } catch (err) {
    throw new NetworkError((err as Error).message);
  }
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (json.result !== 'success') throw new ApiError(String(json.msg ?? `HTTP ${res.status}`), String(json.code ?? 'BAD_REQUEST'), res.status, json);
  return json;
}

export const uploadAvatar = (file: File) => postForm('/users/me/avatar', file);
export const deleteAvatar = () => api.call('DELETE /users/me/avatar', {});
export const addEmoji = (name: string, file: File) => postForm(`/realm/emoji/${encodeURIComponent(name)}`, file);
export const uploadRealmIcon = (file: File) => postForm('/realm/icon', file);
export const deleteRealmIcon = () => api.call('DELETE /realm/icon', {});
export const deleteEmoji = (name: string) => api.call('DELETE /realm/emoji/{emoji_name}', {}, { emoji_name: name });

export const setStatus = (status: { status_text?: string; emoji_name?: string; away?: boolean }) => api.call('POST /users/me/status', status);
export const addAlertWords = (words: string[]) => api.call('POST /users/me/alert_words', { alert_words: words });
export const removeAlertWords = (words: string[]) => api.call('DELETE /users/me/alert_words', { alert_words: words });
export const muteUser = (id: number) => api.call('POST /users/me/muted_users/{muted_user_id}', {}, { muted_user_id: id });
export const unmuteUser = (id: number) => api.call('DELETE /users/me/muted_users/{muted_user_id}', {}, { muted_user_id: id });
export const setTopicPolicy = (streamId: number, topic: string, policy: number) => api.call('POST /user_topics', { stream_id: streamId, topic, visibility_policy: policy });
export const setSubscriptionProperty = (streamId: number, property: string, value: unknown) =>
  api.call('POST /users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] });

export interface Attachment {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: { id: number; date_sent: number }[];
}
export const listAttachments = (): Promise<{ attachments: Attachment[]; upload_space_used: number }> => api.call('GET /attachments', {});
export const deleteAttachment = (id: number) => api.call('DELETE /attachments/{attachment_id}', {}, { attachment_id: id });

export const createBot = (fullName: string, shortName: string, botType: number) => api.call('POST /bots', { full_name: fullName, short_name: shortName, bot_type: botType });
export const regenerateBotKey = (id: number): Promise<{ api_key: string }> => api.call('POST /bots/{bot_id}/api_key/regenerate', {}, { bot_id: id });
export const deactivateBot = (id: number) => api.call('DELETE /bots/{bot_id}', {}, { bot_id: id });
export const reactivateUser = (id: number) => api.call('POST /users/{user_id}/reactivate', {}, { user_id: id });

// Organization.
export const updateRealm = (changes: Record<string, unknown>) => api.call('PATCH /realm', changes);
export const setRealmGroupSetting = (name: string, value: GroupSettingValue, old: GroupSettingValue | undefined) =>
  api.call('PATCH /realm', { [name]: old === undefined ? { new: value } : { new: value, old } });
export const setRole = (userId: number, role: number) => api.call('PATCH /users/{user_id}', { role }, { user_id: userId });
export const deactivateUser = (userId: number) => api.call('DELETE /users/{user_id}', {}, { user_id: userId });

export interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number; // seconds
  expiry_date: number | null;
  invited_as: number;
  email?: string;
  link_url?: string;
  is_multiuse: boolean;
}
export const listInvites = (): Promise<{ invites: Invite[] }> => api.call('GET /invites', {});
export const createInviteLink = (inviteAs: number, expiresInMinutes: number | null, streamIds: number[]): Promise<{ invite_link: string }> =>
  api.call('POST /invites/multiuse', { invite_as: inviteAs, invite_expires_in_minutes: expiresInMinutes, stream_ids: streamIds, include_realm_default_subscriptions: streamIds.length === 0 });
export const inviteByEmail = (emails: string, inviteAs: number, expiresInMinutes: number | null, streamIds: number[]) =>
  api.call('POST /invites', { invitee_emails: emails, invite_as: inviteAs, invite_expires_in_minutes: expiresInMinutes, stream_ids: streamIds, include_realm_default_subscriptions: streamIds.length === 0 });
export const revokeInvite = (inv: Invite) =>
  inv.is_multiuse ? api.call('DELETE /invites/multiuse/{invite_id}', {}, { invite_id: inv.id }) : api.call('DELETE /invites/{invite_id}', {}, { invite_id: inv.id });
export const resendInvite = (id: number) => api.call('POST /invites/{invite_id}/resend', {}, { invite_id: id });

export const addLinkifier = (pattern: string, urlTemplate: string) => api.call('POST /realm/linkifiers', { pattern, url_template: urlTemplate });
export const deleteLinkifier = (id: number) => api.call('DELETE /realm/linkifiers/{filter_id}', {}, { filter_id: id });
export const addPlayground = (name: string, language: string, urlTemplate: string) => api.call('POST /realm/playgrounds', { name, pygments_language: language, url_template: urlTemplate });
export const deletePlayground = (id: number) => api.call('DELETE /realm/playgrounds/{playground_id}', {}, { playground_id: id });
export const addDefaultChannel = (id: number) => api.call('POST /default_streams', { stream_id: id });
export const removeDefaultChannel = (id: number) => api.call('DELETE /default_streams', { stream_id: id });
export const addProfileField = (name: string, hint: string, fieldType: number) => api.call('POST /realm/profile_fields', { name, hint, field_type: fieldType });
export const deleteProfileField = (id: number) => api.call('DELETE /realm/profile_fields/{field_id}', {}, { field_id: id });

export const createGroup = (name: string, description: string, members: number[]) => api.call('POST /user_groups/create', { name, description, members });
export const updateGroup = (id: number, changes: Record<string, unknown>) => api.call('PATCH /user_groups/{user_group_id}', changes, { user_group_id: id });
export const setGroupMembers = (id: number, add: number[], remove: number[]) => api.call('POST /user_groups/{user_group_id}/members', { add, delete: remove }, { user_group_id: id });
export const setSubgroups = (id: number, add: number[], remove: number[]) => api.call('POST /user_groups/{user_group_id}/subgroups', { add, delete: remove }, { user_group_id: id });
export const deactivateGroup = (id: number) => api.call('POST /user_groups/{user_group_id}/deactivate', {}, { user_group_id: id });

export const createChannel = (name: string, description: string, inviteOnly: boolean, subscribers: number[], folderId: number | null) =>
  api.call('POST /channels/create', { name, description, invite_only: inviteOnly, subscribers, folder_id: folderId });
export const updateChannel = (id: number, changes: Record<string, unknown>) => api.call('PATCH /streams/{stream_id}', changes, { stream_id: id });
export const archiveChannel = (id: number) => api.call('DELETE /streams/{stream_id}', {}, { stream_id: id });
export const channelMembers = (id: number): Promise<{ subscribers: number[] }> => api.call('GET /streams/{stream_id}/members', {}, { stream_id: id });
export const addSubscribers = (name: string, userIds: number[]) => api.call('POST /users/me/subscriptions', { subscriptions: [{ name }], principals: userIds });
export const removeSubscribers = (name: string, userIds: number[]) => api.call('DELETE /users/me/subscriptions', { subscriptions: [name], principals: userIds });
export const createFolder = (name: string, description: string) => api.call('POST /channel_folders/create', { name, description });
export const updateFolder = (id: number, changes: Record<string, unknown>) => api.call('PATCH /channel_folders/{channel_folder_id}', changes, { channel_folder_id: id });
