// POST /register's state blocks, one producer per fetch_event_types entry. Later areas add theirs here.
import type { StateContext } from './context.js';
import { isGuest } from '../permissions/channels.js';
import { accessibleBy } from '../permissions/users.js';
import { realmState } from './realm.js';
import { realmUserState } from './realm-users.js';
import { userSettingsState } from './user-settings.js';
import { defaultStreamsState, streamList, subscriptionState } from './subscriptions.js';
import { recentConversationsState, starredState, unreadState } from './message-flags.js';
import { maxMessageId } from '../store/messages.js';
import { presenceData } from './presence.js';
import { listDrafts } from '../store/drafts.js';
import { listSnippets, listViews } from '../store/snippets-views.js';
import { groupRecords } from './user-groups.js';
import { userStatusState } from './user-status.js';
import { formatScheduled } from './scheduled-messages.js';
import { listScheduled } from '../store/scheduled-messages.js';
import { mutedTopicsState, userTopicsState } from './user-topics.js';
import { channelFoldersState } from './channel-folders.js';
import { realmEmojiState } from './realm-emoji.js';
import { linkifierState } from './linkifiers.js';
import { reminderList } from './reminders.js';
import { alertWordsState } from './alert-words.js';
import { profileFieldsState } from './profile-fields.js';
import { userDefaultsState } from './user-defaults.js';
import { EMBEDDED_BOTS, INCOMING_WEBHOOK_INTEGRATIONS, realmBotsState } from './bots.js';
import { listRealmDomains } from '../store/realm-domains.js';
import { mutedUsersState } from './muted-users.js';
import { devicesState } from './devices.js';
import { onboardingSteps } from './onboarding.js';
import { defaultStreamGroupsState } from './default-streams.js';
import { playgroundsState } from './playgrounds.js';
import { STOP_WORDS } from '../store/search.js';

export type { StateContext, StateOptions } from './context.js';

type Producer = (ctx: StateContext) => Promise<Record<string, unknown>> | Record<string, unknown>;

const PRODUCERS: Record<string, Producer> = {
  // zulip_version, zulip_feature_level and zulip_merge_base are in every register response.
  zulip_version: () => ({}),
  realm: (ctx) =>
    realmState({ realm: ctx.realm, user: ctx.user, realmUrl: ctx.realmUrl, systemGroups: ctx.systemGroups, config: ctx.app.config }),
  realm_user: realmUserState,
  user_settings: (ctx) => (ctx.user ? userSettingsState(ctx.user, ctx.options.capabilities) : {}),
  subscription: (ctx) => (ctx.user ? subscriptionState(ctx.db, ctx.realm, ctx.user, ctx.options) : { subscriptions: [], unsubscribed: [], never_subscribed: [] }),
  stream: async (ctx) => ({
    streams: ctx.user
      ? (await streamList(ctx.db, ctx.realm, ctx.user, { includePublic: true, includeWebPublic: true, includeSubscribed: true, includeAll: false, includeDefault: false, excludeArchived: !ctx.options.capabilities.archived_channels, includeCanAccessContent: false })).map(({ is_default: _d, ...s }) => s)
      : [],
  }),
  message: async (ctx) => ({ max_message_id: ctx.user ? await maxMessageId(ctx.db, ctx.user.id) : -1 }),
  // unread_msgs needs both `message` and `update_message_flags`, as the reference server does.
  update_message_flags: (ctx) => (ctx.user && (!ctx.types || ctx.types.has('message')) ? unreadState(ctx.db, ctx.user) : {}),
  starred_messages: (ctx) => (ctx.user ? starredState(ctx.db, ctx.user) : { starred_messages: [] }),
  recent_private_conversations: (ctx) => (ctx.user ? recentConversationsState(ctx.db, ctx.user) : { recent_private_conversations: [] }),
  presence: async (ctx) =>
    ctx.user
      ? presenceData(ctx.db, ctx.realm, {
          historyLimitDays: ctx.options.presenceHistoryLimitDays ?? 14,
          modern: ctx.options.slimPresence,
          accessible: await accessibleBy(ctx.db, ctx.realm, ctx.user),
        })
      : { presences: {}, presence_last_update_id: -1, server_timestamp: Date.now() / 1000 },
  drafts: async (ctx) => ({ drafts: ctx.user ? await listDrafts(ctx.db, ctx.user.id) : [] }),
  saved_snippets: async (ctx) => ({ saved_snippets: ctx.user ? await listSnippets(ctx.db, ctx.user.id) : [] }),
  navigation_views: async (ctx) => ({ navigation_views: ctx.user ? await listViews(ctx.db, ctx.user.id) : [] }),
  // Spectators, who get no user list, learn no membership either (who administers the organization).
  realm_user_groups: async (ctx) => ({
    realm_user_groups: (await groupRecords(ctx.db, ctx.realm, !!ctx.options.capabilities.include_deactivated_groups)).map((g) => (ctx.user ? g : { ...g, members: [] })),
  }),
  scheduled_messages: async (ctx) => ({ scheduled_messages: ctx.user ? (await listScheduled(ctx.db, ctx.user.id)).map(formatScheduled) : [] }),
  reminders: async (ctx) => ({ reminders: ctx.user ? await reminderList(ctx.db, ctx.user) : [] }),
  // Guests are not offered default channels, as in the reference server.
  user_status: (ctx) => (ctx.user ? userStatusState(ctx.db, ctx.realm, ctx.user) : { user_status: {} }),
  default_streams: async (ctx) => ({ realm_default_streams: ctx.user && !isGuest(ctx.user) ? await defaultStreamsState(ctx.db, ctx.realm) : [] }),
  default_stream_groups: async (ctx) => ({ realm_default_stream_groups: ctx.user && !isGuest(ctx.user) ? await defaultStreamGroupsState(ctx.db, ctx.realm) : [] }),
  user_topic: (ctx) => userTopicsState(ctx.db, ctx.user, ctx.options.capabilities),
  muted_topics: (ctx) => mutedTopicsState(ctx.db, ctx.user, ctx.types),
  channel_folders: (ctx) => channelFoldersState(ctx.db, ctx.realm, ctx.user),
  realm_emoji: async (ctx) => ({ realm_emoji: await realmEmojiState(ctx.db, ctx.realm) }),
  realm_linkifiers: (ctx) => linkifierState(ctx.db, ctx.realm, ctx.options.capabilities, false),
  realm_filters: (ctx) => linkifierState(ctx.db, ctx.realm, ctx.options.capabilities, true),
  alert_words: (ctx) => alertWordsState(ctx.db, ctx.user),
  custom_profile_fields: (ctx) => profileFieldsState(ctx.db, ctx.realm),
  realm_domains: async (ctx) => ({ realm_domains: await listRealmDomains(ctx.db, ctx.realm.id) }),
  realm_user_settings_defaults: (ctx) => userDefaultsState(ctx.db, ctx.realm),
  realm_bot: (ctx) => realmBotsState(ctx.db, ctx.realm, ctx.user),
  realm_embedded_bots: () => ({ realm_embedded_bots: EMBEDDED_BOTS }),
  realm_incoming_webhook_bots: () => ({ realm_incoming_webhook_bots: INCOMING_WEBHOOK_INTEGRATIONS }),
  device: (ctx) => devicesState(ctx.db, ctx.user),
  muted_users: (ctx) => mutedUsersState(ctx.db, ctx.user),
  onboarding_steps: (ctx) => ({ onboarding_steps: onboardingSteps(ctx.user) }),
  // The words full-text search ignores (src/store/search.ts), for clients that highlight matches.
  realm_playgrounds: (ctx) => playgroundsState(ctx.db, ctx.realm),
  stop_words: () => ({ stop_words: [...STOP_WORDS] }),
};

// `types` null means every block. Unknown types are ignored, as the reference server does.
export async function fetchInitialState(ctx: Omit<StateContext, 'types'> & { types?: Set<string> | null }, types: string[] | null): Promise<Record<string, unknown>> {
  const wanted = types === null ? Object.keys(PRODUCERS) : [...new Set(types)].filter((t) => t in PRODUCERS);
  ctx.types = types === null ? null : new Set(types);
  const state: Record<string, unknown> = {};
  for (const type of wanted) Object.assign(state, await PRODUCERS[type](ctx as StateContext));
  return state;
}
