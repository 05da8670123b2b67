// Users' values of the organization's custom profile fields: each user edits their own (when the field is
// editable by users), administrators anyone's. Every change is a realm_user custom_profile_field update.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { codePointLength } from '../lib/text.js';
import { renderMarkdown } from '../markdown/render.js';
import type { Tx } from '../store/db.js';
import { deleteProfileValue, findProfileValue, saveProfileValue, type ProfileField } from '../store/profile-fields.js';
import type { Realm } from '../store/realms.js';
import { findUsers, ROLE, type User } from '../store/users.js';
import { checkHuman } from './checks.js';
import { accessProfileField, isUrl } from './profile-fields.js';
import { FIELD_TYPE } from '../state/profile-fields.js';
import { inTransaction, type Emit } from './transaction.js';
import { emitPersonUpdate } from './user-events.js';
import { checkAdministrator } from './users.js';

export type ProfileInputValue = string | number[] | null;

const SHORT_MAX = 50;
const LONG_MAX = 500;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkText(name: string, value: ProfileInputValue, max: number): string {
  if (typeof value !== 'string') throw new ApiError(`${name} is not a string`);
  if (codePointLength(value) > max) throw new ApiError(`${name} is too long (limit: ${max} characters)`);
  return value;
}

function isDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

// The value to store: text as given, a user list as its JSON text.
async function checkValue(tx: Tx, realm: Realm, field: ProfileField, value: ProfileInputValue): Promise<string> {
  const name = field.name;
  switch (field.type) {
    case FIELD_TYPE.LONG_TEXT:
      return checkText(name, value, LONG_MAX);
    case FIELD_TYPE.DATE:
      if (!isDate(checkText(name, value, Infinity))) throw new ApiError(`${name} is not a date`);
      return value as string;
    case FIELD_TYPE.URL:
      if (!isUrl(checkText(name, value, Infinity))) throw new ApiError(`${name} is not a URL`);
      return value as string;
    case FIELD_TYPE.SELECT: {
      const options = JSON.parse(field.fieldData || '{}') as Record<string, unknown>;
      if (typeof value !== 'string' || !Object.hasOwn(options, value)) throw new ApiError(`'${String(value)}' is not a valid choice for '${name}'.`);
      return value;
    }
    case FIELD_TYPE.USER: {
      const ids = typeof value === 'string' ? parseIdList(value) : value;
      if (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id))) throw new ApiError('User IDs is not a list');
      const users = await findUsers(tx, realm.id, ids);
      for (const id of ids) {
        const u = users.find((x) => x.id === id);
        if (!u) throw new ApiError(`Invalid user ID: ${id}`);
        if (!u.isActive) throw new ApiError(`User with ID ${id} is deactivated`);
        if (u.isBot) throw new ApiError(`User with ID ${id} is a bot`);
      }
      return JSON.stringify(ids);
    }
    default: // short text, external account, pronouns
      return checkText(name, value, SHORT_MAX);
  }
}

function parseIdList(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

const isEmpty = (v: ProfileInputValue) => v === null || v === '' || (Array.isArray(v) && !v.length);
const rendered = (field: ProfileField, value: string) =>
  field.type === FIELD_TYPE.SHORT_TEXT || field.type === FIELD_TYPE.LONG_TEXT ? renderMarkdown(value) : null;

function checkEditable(actor: User, field: ProfileField): void {
  if (actor.role > ROLE.administrator && !field.editableByUser) {
    throw new ApiError('You are not allowed to change this field. Contact an administrator to update it.');
  }
}

async function clearValue(tx: Tx, emit: Emit, realm: Realm, target: User, field: ProfileField): Promise<void> {
  if (await deleteProfileValue(tx, target.id, field.id)) {
    await emitPersonUpdate(tx, emit, realm, target, { custom_profile_field: { id: field.id, value: null } });
  }
}

// Every item is checked before anything is written; an empty value clears the field.
async function updateInTx(tx: Tx, emit: Emit, realm: Realm, actor: User, target: User, items: { id: number; value: ProfileInputValue }[]) {
  const checked: { field: ProfileField; value: string | null }[] = [];
  for (const item of items) {
    const field = await accessProfileField(tx, realm, item.id);
    checkEditable(actor, field);
    checked.push({ field, value: isEmpty(item.value) ? null : await checkValue(tx, realm, field, item.value) });
  }
  for (const { field, value } of checked) {
    if (value === null) {
      await clearValue(tx, emit, realm, target, field);
      continue;
    }
    const old = await findProfileValue(tx, target.id, field.id);
    if (old?.value === value) continue;
    const html = rendered(field, value);
    await saveProfileValue(tx, target.id, field.id, value, html, !!old);
    await emitPersonUpdate(tx, emit, realm, target, { custom_profile_field: { id: field.id, value, ...(html !== null ? { rendered_value: html } : {}) } });
  }
}

export async function doUpdateOwnProfileData(app: App, realm: Realm, user: User, items: { id: number; value: ProfileInputValue }[]): Promise<void> {
  checkHuman(user);
  await inTransaction(app, (tx, emit) => updateInTx(tx, emit, realm, user, user, items));
}

export async function doRemoveOwnProfileData(app: App, realm: Realm, user: User, fieldIds: number[]): Promise<void> {
  checkHuman(user);
  await inTransaction(app, async (tx, emit) => {
    for (const id of fieldIds) {
      const field = await accessProfileField(tx, realm, id);
      checkEditable(user, field);
      await clearValue(tx, emit, realm, user, field);
    }
  });
}

// An administrator's change of another user's data (PATCH /users/{user_id} profile_data), inside that request's
// transaction.
export async function updateProfileDataOf(tx: Tx, emit: Emit, realm: Realm, actor: User, target: User, items: { id: number; value: ProfileInputValue }[]) {
  checkAdministrator(actor);
  if (target.isBot) throw new ApiError('No such user');
  await updateInTx(tx, emit, realm, actor, target, items);
}
