// PATCH /settings: a user's own settings and account fields, or (administrators) settings of many users.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { LIMITS } from '../lib/limits.js';
import { yieldToEventLoop } from '../lib/pace.js';
import { randomToken } from '../lib/secrets.js';
import { realmSettings } from '../state/realm.js';
import { checkUserSetting, languageName, userSettings, USER_SETTING_KINDS } from '../state/user-settings.js';
import type { Db, Tx } from '../store/db.js';
import { deleteAllDrafts } from '../store/drafts.js';
import { findGroups, groupMemberIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { findUsers, listUsers, lockUsers, updateUser, type User } from '../store/users.js';
import { insertEmailChange, takeEmailChange } from '../store/user-identities.js';
import { checkAddressAvailable, lockIdentities, nameKeyOf } from './identity.js';
import { textKey } from '../lib/identity.js';
import { tooManyAttempts, verifyPasswordLimited } from './auth.js';
import { checkEmail, checkFullName, checkHuman, checkPassword } from './checks.js';
import { queueTemplateMail } from './mail.js';
import { confirmNewEmailMail, emailChangedMail } from '../format/mails.js';
import { applyDeliveryEmailChange, applyVisibilityChange, lazyUsers, type UserList } from './email-visibility.js';
import { presenceEnabledChanged } from './presence.js';
import { checkEmailAllowed } from './realm-domains.js';
import { inTransaction, type Emit } from './transaction.js';
import { emitPersonUpdate } from './user-events.js';
import { checkAdministrator, realmFakeEmailDomain } from './users.js';
import { deleteSessionsOf } from '../store/sessions.js';

export interface SettingsInput {
  settings: Record<string, unknown>;
  fullName?: string;
  email?: string;
  oldPassword?: string;
  newPassword?: string;
  targetUsers?: { user_ids?: number[]; group_ids?: number[]; skip_if_already_edited?: boolean };
  keepSession?: string; // the browser session making the change (its token's hash) stays open
}

// Names of settings a user changed themselves, so that an administrator's bulk change can skip them.
const SELF_EDITED = '_self_edited';

export const SETTING_NAMES = Object.keys(USER_SETTING_KINDS);

const TARGETS_PER_TRANSACTION = 250;

function checkSettings(raw: Record<string, unknown>): Record<string, boolean | number | string> {
  const out: Record<string, boolean | number | string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const checked = checkUserSetting(name, value);
    if (!checked.ok) throw new ApiError(checked.message, 'BAD_REQUEST', 400, { var_name: name });
    out[name] = checked.value;
  }
  return out;
}

async function targetsOf(tx: Db, realm: Realm, t: NonNullable<SettingsInput['targetUsers']>): Promise<User[]> {
  const ids = new Set<number>(t.user_ids ?? []);
  const users = await findUsers(tx, realm.id, [...ids]);
  const byId = new Map(users.map((u) => [u.id, u]));
  for (const id of ids) {
    if (!byId.get(id)?.isActive) throw new ApiError(`Invalid user ID: ${id}`);
  }
  if (t.group_ids?.length) {
    const groups = await findGroups(tx, realm.id, t.group_ids);
    for (const id of t.group_ids) if (!groups.has(id)) throw new ApiError(`Invalid user group ID: ${id}`);
    const members = await findUsers(tx, realm.id, (await groupMemberIds(tx, t.group_ids)).filter((id) => !ids.has(id)));
    for (const u of members) if (u.isActive) users.push(u);
  }
  return users;
}

interface ApplyContext {
  tx: Tx;
  emit: Emit;
  realm: Realm;
  fakeDomain: string;
  users: UserList;
}

export const applyContext = (app: App, tx: Tx, emit: Emit, realm: Realm): ApplyContext => ({
  tx, emit, realm, fakeDomain: realmFakeEmailDomain(app, realm), users: lazyUsers(tx, realm.id),
});

// Writes the changed settings of one user and announces each: one user_settings event per setting.
export async function applySettings(c: ApplyContext, target: User, values: Record<string, unknown>, bySelf: boolean, skipEdited: boolean) {
  const { tx, emit, realm } = c;
  const current = userSettings(target) as Record<string, unknown>;
  const edited = new Set((target.settings[SELF_EDITED] as string[] | undefined) ?? []);
  const changed = Object.entries(values).filter(([name, v]) => current[name] !== v && !(skipEdited && edited.has(name)));
  if (!changed.length) return;
  const stored = { ...target.settings };
  for (const [name, v] of changed) {
    if (name !== 'timezone') stored[name] = v;
    if (bySelf) edited.add(name);
  }
  stored[SELF_EDITED] = [...edited];
  const timezone = changed.find(([n]) => n === 'timezone')?.[1] as string | undefined;
  await updateUser(tx, target.id, { settings: stored, ...(timezone !== undefined ? { timezone } : {}) });
  for (const [property, value] of changed) {
    const event: Record<string, unknown> = { type: 'user_settings', op: 'update', property, value };
    if (property === 'default_language') event.language_name = languageName(value as string);
    emit(realm.id, event, [target.id]);
  }
  // Turning synchronisation off deletes the drafts stored on the server. No drafts events: clients keep their
  // local copies, which a removal would delete.
  if (changed.some(([n, v]) => n === 'enable_drafts_synchronization' && v === false)) await deleteAllDrafts(tx, target.id);
  const presence = changed.find(([n]) => n === 'presence_enabled');
  if (presence) await presenceEnabledChanged(tx, emit, realm, target, presence[1] as boolean);
  if (timezone !== undefined) await emitPersonUpdate(tx, emit, realm, target, { email: target.email, timezone });
  const visibility = changed.find(([n]) => n === 'email_address_visibility');
  if (visibility) {
    await applyVisibilityChange(tx, emit, realm, target, Number(current.email_address_visibility), Number(visibility[1]), c.fakeDomain, c.users);
  }
}

// With require_unique_names, no two active users share a name, whatever its case or look-alike characters (the
// reference compares NFKC and case-folded names).
async function checkNameAvailable(db: Db, realm: Realm, user: User, name: string): Promise<void> {
  if (!realmSettings(realm).require_unique_names) return;
  const key = textKey(name);
  if ((await listUsers(db, realm.id)).some((u) => u.isActive && u.id !== user.id && nameKeyOf(u) === key)) {
    throw new ApiError('Unique names required in this organization.');
  }
}

export async function doUpdateSettings(app: App, realm: Realm, user: User, input: SettingsInput): Promise<Record<string, unknown>> {
  checkHuman(user);
  const values = checkSettings(input.settings);
  const result: Record<string, unknown> = {};
  if (input.targetUsers) {
    checkAdministrator(user);
    if (input.fullName !== undefined || input.email !== undefined || input.newPassword !== undefined) {
      throw new ApiError('Account details of other users cannot be changed with target_users');
    }
    const skipEdited = !!input.targetUsers.skip_if_already_edited;
    const targets = (await targetsOf(app.db, realm, input.targetUsers)).map((t) => t.id);
    if (targets.length > LIMITS.settingsTargetUsers) throw new ApiError(`Too many target users: ${targets.length} (limit: ${LIMITS.settingsTargetUsers})`);
    // Each slice of users is changed in a transaction of its own (the reference server changes each user in its
    // own), so that other requests are served in between.
    for (let i = 0; i < targets.length; i += TARGETS_PER_TRANSACTION) {
      if (i) await yieldToEventLoop();
      await inTransaction(app, async (tx, emit) => {
        const c = applyContext(app, tx, emit, realm);
        for (const t of await lockUsers(tx, realm.id, targets.slice(i, i + TARGETS_PER_TRANSACTION))) {
          if (t.isActive) await applySettings(c, t, values, t.id === user.id, skipEdited && t.id !== user.id);
        }
      });
    }
    return result;
  }
  const settings = realmSettings(realm);
  let passwordHash: string | undefined;
  if (input.newPassword !== undefined) {
    if (input.oldPassword === undefined) throw new ApiError("Missing 'old_password' argument", 'REQUEST_VARIABLE_MISSING', 400, { var_name: 'old_password' });
    if (!(await verifyPasswordLimited(app, realm, user, user.deliveryEmail, input.oldPassword, tooManyAttempts))) throw new ApiError('Wrong password!');
    try {
      checkPassword(input.newPassword);
    } catch {
      throw new ApiError('New password is too weak!');
    }
    passwordHash = await app.passwords.hash(input.newPassword);
  }
  let fullName: string | undefined;
  if (input.fullName !== undefined && input.fullName.trim() !== user.fullName) {
    if (settings.name_changes_disabled && user.role > 200) throw new ApiError('Name changes are disabled in this organization. Please contact an administrator.');
    fullName = checkFullName(input.fullName);
    await checkNameAvailable(app.db, realm, user, fullName);
  }
  let newEmail: string | undefined;
  if (input.email !== undefined && input.email.trim().toLowerCase() !== user.deliveryEmail.toLowerCase()) {
    if (settings.email_changes_disabled && user.role > 200) throw new ApiError('Email address changes are disabled in this organization.');
    newEmail = checkEmail(input.email);
    await checkEmailAllowed(app.db, realm, newEmail);
    // An address its holder hides from this user is refused only at confirmation, which its owner alone can reach.
    await checkAddressAvailable(app.db, realm, newEmail, { placeholderDomain: realmFakeEmailDomain(app, realm), except: user.id, visibleTo: user });
  }
  await inTransaction(app, async (tx, emit) => {
    // The row as it is now (another change may have committed since this request began), locked until the end.
    const [fresh] = await lockUsers(tx, realm.id, [user.id]);
    await applySettings(applyContext(app, tx, emit, realm), fresh ?? user, values, true, false);
    if (passwordHash) {
      await updateUser(tx, user.id, { passwordHash });
      // A new password logs out every other browser, as the reference's does (Django keeps the changer's own).
      await deleteSessionsOf(tx, [user.id], input.keepSession);
    }
    if (fullName !== undefined) {
      await updateUser(tx, user.id, { fullName });
      await emitPersonUpdate(tx, emit, realm, user, { full_name: fullName });
    }
    if (newEmail !== undefined) {
      const key = randomToken(32);
      await insertEmailChange(tx, key, user.id, newEmail, Math.floor(Date.now() / 1000));
      // Mailed to the new address (which proves it is the user's); logged too, for an installation without mail.
      await queueTemplateMail(app, tx, realm, newEmail, confirmNewEmailMail({
        realmName: realm.name, oldEmail: user.deliveryEmail, newEmail, key, validHours: EMAIL_CHANGE_VALID_SECONDS / 3600,
      }));
      app.log.info({ user_id: user.id, new_email: newEmail, path: `/accounts/confirm_new_email/${key}` }, 'e-mail change confirmation link');
      result.account_email = 'Check your email for a confirmation link.';
    }
  });
  return result;
}

export const EMAIL_CHANGE_VALID_SECONDS = 24 * 3600;

export async function doConfirmEmailChange(app: App, realm: Realm, key: string): Promise<User> {
  return inTransaction(app, async (tx, emit) => {
    const change = await takeEmailChange(tx, key);
    if (!change || change.created < Math.floor(Date.now() / 1000) - EMAIL_CHANGE_VALID_SECONDS) throw new ApiError('Invalid or expired confirmation link', 'BAD_REQUEST', 404);
    const [user] = await findUsers(tx, realm.id, [change.userId]);
    if (!user || !user.isActive) throw new ApiError('Invalid or expired confirmation link', 'BAD_REQUEST', 404);
    // Checked again: another user may have taken the address, or a look-alike of it, since it was asked for.
    await lockIdentities(tx, realm);
    await checkAddressAvailable(tx, realm, change.newEmail, { placeholderDomain: realmFakeEmailDomain(app, realm), except: user.id });
    // The old address hears of it, as the reference's notify_change_in_email: a stolen session cannot take the
    // account over silently.
    await queueTemplateMail(app, tx, realm, user.deliveryEmail, emailChangedMail({ realmName: realm.name, oldEmail: user.deliveryEmail, newEmail: change.newEmail }));
    return applyDeliveryEmailChange(tx, emit, realm, user, change.newEmail);
  });
}
