// Names shown for roles and system groups, and which settings are reserved to owners.
export const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

export const systemGroupLabel = (name: string) =>
  ({
    'role:internet': 'Everyone on the internet', 'role:everyone': 'Everyone including guests', 'role:members': 'Members',
    'role:fullmembers': 'Full members', 'role:moderators': 'Moderators', 'role:administrators': 'Administrators',
    'role:owners': 'Owners', 'role:nobody': 'Nobody',
  })[name] ?? name;

// Organization settings only owners may change (the reference server's list, which Parlance's server enforces):
// administrators see them without a control.
export const OWNER_ONLY_REALM_SETTINGS = new Set([
  'invite_required', 'emails_restricted_to_domains', 'disallow_disposable_email_addresses', 'waiting_period_threshold', 'message_retention_days',
  'create_multiuse_invite_group', 'can_create_groups', 'can_invite_users_group', 'can_manage_all_groups', 'can_manage_billing_group',
]);
