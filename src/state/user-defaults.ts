// The realm_user_settings_defaults register block.
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES, USER_SETTING_DEFAULTS } from './user-settings.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findUserDefaults } from '../store/user-defaults.js';

export async function userDefaultsState(db: Db, realm: Realm) {
  return {
    realm_user_settings_defaults: {
      ...defaultsOf(await findUserDefaults(db, realm.id)),
      emojiset_choices: EMOJISET_CHOICES.map((c) => ({ ...c })),
      available_notification_sounds: [...AVAILABLE_NOTIFICATION_SOUNDS],
    },
  };
}

export function defaultsOf(stored: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(USER_DEFAULT_NAMES.map((n) => [n, n in stored ? stored[n] : USER_SETTING_DEFAULTS[n as keyof typeof USER_SETTING_DEFAULTS]]));
}

// Every personal setting but the time zone, which belongs to a person rather than to an organization's taste.
export const USER_DEFAULT_NAMES = Object.keys(USER_SETTING_DEFAULTS).filter((n) => n !== 'timezone');
