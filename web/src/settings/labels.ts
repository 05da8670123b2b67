// Names shown for roles and system groups.
export const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

export const systemGroupLabel = (name: string) =>
  ({
    'role:internet': 'Everyone on the internet', 'role:everyone': 'Everyone including guests', 'role:members': 'Members',
    'role:fullmembers': 'Full members', 'role:moderators': 'Moderators', 'role:administrators': 'Administrators',
    'role:owners': 'Owners', 'role:nobody': 'Nobody',
  })[name] ?? name;
