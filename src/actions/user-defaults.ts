// The settings new users of an organization start with (PATCH /realm/user_settings_defaults): administrators
// change them with the validation of PATCH /settings; everyone gets realm_user_settings_defaults events.
// Existing users keep their settings.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { AVAILABLE_NOTIFICATION_SOUNDS, checkUserSetting, EMOJISET_CHOICES, USER_SETTING_DEFAULTS } from '../state/user-settings.js';
import type { Db } from '../store/db.js';
import { lockRealm, type Realm } from '../store/realms.js';
import { findUserDefaults, saveUserDefaults } from '../store/user-defaults.js';
import type { User } from '../store/users.js';
import { inTransaction } from './transaction.js';
import { checkAdministrator } from './users.js';

// Every personal setting but the time zone, which belongs to a person rather than to an organization's taste.
export const USER_DEFAULT_NAMES = Object.keys(USER_SETTING_DEFAULTS).filter((n) => n !== 'timezone');

function defaultsOf(stored: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(USER_DEFAULT_NAMES.map((n) => [n, n in stored ? stored[n] : USER_SETTING_DEFAULTS[n as keyof typeof USER_SETTING_DEFAULTS]]));
}

export async function userDefaultsState(db: Db, realm: Realm) {
  return {
    realm_user_settings_defaults: {
      ...defaultsOf(await findUserDefaults(db, realm.id)),
      emojiset_choices: EMOJISET_CHOICES.map((c) => ({ ...c })),
      available_notification_sounds: [...AVAILABLE_NOTIFICATION_SOUNDS],
    },
  };
}

export async function doUpdateUserDefaults(app: App, realm: Realm, user: User, raw: Record<string, unknown>): Promise<void> {
  checkAdministrator(user);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const checked = checkUserSetting(name, value);
    if (!checked.ok) throw new ApiError(checked.message, 'BAD_REQUEST', 400, { var_name: name });
    values[name] = checked.value;
  }
  await inTransaction(app, async (tx, emit) => {
    await lockRealm(tx, app.dialect, realm.id);
    const stored = await findUserDefaults(tx, realm.id);
    const current = defaultsOf(stored);
    const changed = Object.entries(values).filter(([n, v]) => current[n] !== v);
    if (!changed.length) return;
    for (const [n, v] of changed) stored[n] = v;
    await saveUserDefaults(tx, realm.id, stored);
    for (const [property, value] of changed) emit(realm.id, { type: 'realm_user_settings_defaults', op: 'update', property, value }, null);
  });
}
