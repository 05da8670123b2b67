// Every bound a request is held to beyond the generic ones (JSON lists of at most 10,000 items, src/http/params.ts),
// in one place. Each keeps the work one request can cause, and the size of any one SQL statement it leads to,
// small: past a bound the request is refused with 400 and a message naming the bound, never a 500.
export const LIMITS = {
  // Alert words: the reference server's length per word; the count is ours (it has none).
  alertWordLength: 100,
  alertWordsPerUser: 1000,
  alertWordsPerRequest: 1000,
  // Words and quoted phrases in all `search` operands of one narrow together: each phrase is one condition of
  // the query (SQLite refuses expressions nested more than 1,000 deep).
  searchTermsPerNarrow: 100,
  // POST /users/me/subscriptions (and PATCH's `add`): channels named, channels created, and user × channel
  // subscriptions made by one request; channels one user may create per hour (PARLANCE_CHANNEL_CREATION_LIMIT).
  channelsPerRequest: 1000,
  channelsCreatedPerRequest: 100,
  subscriptionsPerRequest: 10_000,
  principalsPerRequest: 1000,
  // Users and subgroups in one user group request (creation or a change of members/subgroups).
  groupMembersPerRequest: 10_000,
  groupSubgroupsPerRequest: 1000,
  // Drafts created by one POST /drafts.
  draftsPerRequest: 100,
  // Channels and groups named by one invitation link.
  inviteChannelsPerRequest: 1000,
  inviteGroupsPerRequest: 1000,
  // PATCH /settings with target_users: users changed (those named and the groups' members together), in
  // transactions of 250 users; groups named.
  settingsTargetUsers: 10_000,
  settingsTargetGroupsPerRequest: 1000,
  // Custom profile fields: values set or cleared at once, fields reordered at once, options of a select field.
  profileFieldsPerRequest: 1000,
  profileFieldOptions: 1000,
  // Subscription properties changed by one POST /users/me/subscriptions/properties.
  subscriptionPropertiesPerRequest: 1000,
} as const;

export const tooMany = (what: string, limit: number) => `${what} has too many items (limit: ${limit})`;
