// Custom profile fields of an organization: administrators define them (types of the reference server, §6),
// everyone receives the whole list in a custom_profile_fields event whenever it changes.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { LIMITS } from '../lib/limits.js';
import { codePointLength } from '../lib/text.js';
import { DEFAULT_EXTERNAL_ACCOUNTS } from '../state/realm-data.js';
import type { Db, Tx } from '../store/db.js';
import {
  deleteProfileField, deleteValuesOutside, findProfileField, insertProfileField, listProfileFields, updateProfileField,
  type ProfileField, type ProfileFieldChanges,
} from '../store/profile-fields.js';
import type { Realm } from '../store/realms.js';
import { isUniqueViolation } from '../store/tx.js';
import { findUsers, type User } from '../store/users.js';
import { inTransaction, type Emit } from './transaction.js';
import { emitPersonUpdate } from './user-events.js';
import { checkAdministrator } from './users.js';
import { FIELD_TYPE, formatProfileField } from '../state/profile-fields.js';

const NAME_MAX_LENGTH = 40;
const HINT_MAX_LENGTH = 80;
const MAX_SUMMARY_FIELDS = 2;

export async function accessProfileFields(app: App, realm: Realm) {
  return (await listProfileFields(app.db, realm.id)).map(formatProfileField);
}

type FieldData = Record<string, unknown>;

function checkSelectData(data: FieldData): void {
  const entries = Object.entries(data);
  if (!entries.length) throw new ApiError('Field must have at least one choice.');
  if (entries.length > LIMITS.profileFieldOptions) throw new ApiError(`Too many choices: ${entries.length} (limit: ${LIMITS.profileFieldOptions})`);
  const texts = new Set<string>();
  for (const [key, option] of entries) {
    if (!key.trim()) throw new ApiError("'value' cannot be blank.");
    if (!option || typeof option !== 'object' || Array.isArray(option)) throw new ApiError('field_data is not a dict');
    for (const k of ['text', 'order']) {
      const v = (option as FieldData)[k];
      if (v === undefined) throw new ApiError(`${k} key is missing from field_data`);
      if (typeof v !== 'string') throw new ApiError(`field_data["${k}"] is not a string`);
      if (!v.trim()) throw new ApiError(`field_data["${k}"] cannot be blank.`);
    }
    const extra = Object.keys(option).filter((k) => k !== 'text' && k !== 'order');
    if (extra.length) throw new ApiError(`Unexpected arguments: ${extra.join(', ')}`);
    texts.add((option as { text: string }).text);
  }
  if (texts.size !== entries.length) throw new ApiError('Field must not have duplicate choices.');
}

function checkExternalAccountData(data: FieldData): void {
  const extra = Object.keys(data).filter((k) => k !== 'subtype' && k !== 'url_pattern');
  if (extra.length) throw new ApiError(`Unexpected arguments: ${extra.join(', ')}`);
  if (data.subtype === undefined) throw new ApiError('subtype key is missing from field_data');
  if (typeof data.subtype !== 'string' || !data.subtype.trim()) throw new ApiError('field_data["subtype"] cannot be blank.');
  if (data.url_pattern !== undefined) {
    const p = data.url_pattern;
    if (typeof p !== 'string' || p.split('%(username)s').length !== 2) throw new ApiError("URL pattern must contain '%(username)s'.");
    if (!isUrl(p.replace('%(username)s', 'username'))) throw new ApiError('field_data["url_pattern"] is not a URL');
  }
  if (data.subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (data.subtype !== 'custom') throw new ApiError('Invalid external account type');
  if (data.url_pattern === undefined) throw new ApiError('Custom external account must define URL pattern');
}

export function isUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

const isDefaultExternal = (type: number, data: FieldData) => type === FIELD_TYPE.EXTERNAL_ACCOUNT && data.subtype !== 'custom';

interface FieldInput {
  name?: string;
  hint?: string;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
}

// The full definition a field would have, checked as a whole (name, hint, data of its type, summary rules).
function checkDefinition(type: number, d: { name: string; hint: string; data: FieldData; summary: boolean }): void {
  if (!(Object.values(FIELD_TYPE) as number[]).includes(type)) throw new ApiError('Invalid field type.');
  if (type === FIELD_TYPE.SELECT) checkSelectData(d.data);
  if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) checkExternalAccountData(d.data);
  if (!isDefaultExternal(type, d.data)) {
    if (!d.name.trim()) throw new ApiError('Label cannot be blank.');
    if (codePointLength(d.hint) > HINT_MAX_LENGTH) throw new ApiError(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
    if (codePointLength(d.name) > NAME_MAX_LENGTH) throw new ApiError(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
  }
  if (d.summary && (type === FIELD_TYPE.LONG_TEXT || type === FIELD_TYPE.USER)) throw new ApiError('Field type not supported for display in profile summary.');
}

async function checkSummaryRoom(tx: Tx, realm: Realm, exceptId?: number): Promise<void> {
  const shown = (await listProfileFields(tx, realm.id)).filter((f) => f.displayInProfileSummary && f.id !== exceptId);
  if (shown.length >= MAX_SUMMARY_FIELDS) throw new ApiError(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
}

async function announceFields(tx: Tx, emit: Emit, realm: Realm): Promise<void> {
  emit(realm.id, { type: 'custom_profile_fields', fields: (await listProfileFields(tx, realm.id)).map(formatProfileField) }, null);
}

const labelTaken = () => new ApiError('A field with that label already exists.');

async function writeFields<T>(app: App, fn: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(app, fn);
  } catch (err) {
    if (isUniqueViolation(err)) throw labelTaken();
    throw err;
  }
}

export async function doCreateProfileField(app: App, realm: Realm, user: User, type: number, input: FieldInput): Promise<number> {
  checkAdministrator(user);
  const data = input.fieldData ?? {};
  let name = (input.name ?? '').trim();
  let hint = input.hint ?? '';
  const summary = input.displayInProfileSummary ?? false;
  checkDefinition(type, { name, hint, data, summary });
  if (isDefaultExternal(type, data)) {
    const preset = DEFAULT_EXTERNAL_ACCOUNTS[data.subtype as keyof typeof DEFAULT_EXTERNAL_ACCOUNTS];
    ({ name, hint } = preset);
  }
  // Only select and external-account fields keep data.
  const keepsData = type === FIELD_TYPE.SELECT || type === FIELD_TYPE.EXTERNAL_ACCOUNT;
  return writeFields(app, async (tx, emit) => {
    if (summary) await checkSummaryRoom(tx, realm);
    if ((await listProfileFields(tx, realm.id)).some((f) => f.name === name)) throw labelTaken();
    const id = await insertProfileField(tx, realm.id, {
      name, hint, type, fieldData: keepsData ? JSON.stringify(data) : '', displayInProfileSummary: summary,
      required: input.required ?? false, editableByUser: input.editableByUser ?? true,
    });
    await announceFields(tx, emit, realm);
    return id;
  });
}

export async function accessProfileField(db: Db, realm: Realm, id: number): Promise<ProfileField> {
  const field = await findProfileField(db, realm.id, id);
  if (!field) throw new ApiError(`Field id ${id} not found.`);
  return field;
}

export async function doUpdateProfileField(app: App, realm: Realm, user: User, id: number, input: FieldInput): Promise<void> {
  checkAdministrator(user);
  const name = input.name?.trim();
  await writeFields(app, async (tx, emit) => {
    const field = await accessProfileField(tx, realm, id);
    const oldData = field.fieldData ? (JSON.parse(field.fieldData) as FieldData) : {};
    // Default external accounts take their label and hint from the preset; only their flags may change.
    if (isDefaultExternal(field.type, oldData)) {
      const same = (name === undefined || name === field.name) && (input.hint === undefined || input.hint === field.hint) &&
        (input.fieldData === undefined || JSON.stringify(input.fieldData) === field.fieldData);
      if (!same) throw new ApiError('Default custom field cannot be updated.');
    }
    const summary = input.displayInProfileSummary ?? field.displayInProfileSummary;
    const data = input.fieldData ?? oldData;
    checkDefinition(field.type, { name: name ?? field.name, hint: input.hint ?? field.hint, data, summary });
    if (input.displayInProfileSummary) await checkSummaryRoom(tx, realm, field.id);
    if (name !== undefined && name !== field.name && (await listProfileFields(tx, realm.id)).some((f) => f.name === name)) throw labelTaken();
    const changes: ProfileFieldChanges = { name, hint: input.hint, displayInProfileSummary: input.displayInProfileSummary, required: input.required, editableByUser: input.editableByUser };
    if (input.fieldData !== undefined && (field.type === FIELD_TYPE.SELECT || field.type === FIELD_TYPE.EXTERNAL_ACCOUNT)) {
      changes.fieldData = JSON.stringify(input.fieldData);
    }
    await updateProfileField(tx, field.id, changes);
    // Users whose chosen option was removed lose their value.
    if (changes.fieldData !== undefined && field.type === FIELD_TYPE.SELECT) {
      const cleared = await deleteValuesOutside(tx, field.id, Object.keys(input.fieldData!));
      for (const u of await findUsers(tx, realm.id, cleared)) await emitPersonUpdate(tx, emit, realm, u, { custom_profile_field: { id: field.id, value: null } });
    }
    await announceFields(tx, emit, realm);
  });
}

export async function doDeleteProfileField(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const field = await accessProfileField(tx, realm, id);
    await deleteProfileField(tx, field.id);
    await announceFields(tx, emit, realm);
  });
}

// `order` lists every field of the organization; each field's order becomes its index.
export async function doReorderProfileFields(app: App, realm: Realm, user: User, order: number[]): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    const fields = await listProfileFields(tx, realm.id);
    const position = new Map(order.map((id, i) => [id, i]));
    if (fields.some((f) => !position.has(f.id))) throw new ApiError('Invalid order mapping.');
    for (const f of fields) await updateProfileField(tx, f.id, { order: position.get(f.id)! });
    await announceFields(tx, emit, realm);
  });
}
