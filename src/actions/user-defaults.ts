// The settings new users of an organization start with (PATCH /realm/user_settings_defaults): administrators
// change them with the validation of PATCH /settings; everyone gets realm_user_settings_defaults events.
// Existing users keep their settings.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { checkUserSetting } from '../state/user-settings.js';
import { lockRealm, type Realm } from '../store/realms.js';
import { findUserDefaults, saveUserDefaults } from '../store/user-defaults.js';
import type { User } from '../store/users.js';
import { inTransaction } from './transaction.js';
import { checkAdministrator } from './users.js';
import { defaultsOf } from '../state/user-defaults.js';

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
