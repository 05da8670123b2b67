import type { Selectable, Updateable } from 'kysely';
import type { Db } from './db.js';
import type { CustomProfileFieldTable } from './schema.js';

export interface ProfileField {
  id: number;
  realmId: number;
  name: string;
  hint: string;
  type: number;
  fieldData: string;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export interface ProfileValue {
  value: string;
  rendered_value?: string;
}

function toField(r: Selectable<CustomProfileFieldTable>): ProfileField {
  return {
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    hint: r.hint,
    type: r.field_type,
    fieldData: r.field_data,
    order: r.order,
    displayInProfileSummary: r.display_in_profile_summary === 1,
    required: r.required === 1,
    editableByUser: r.editable_by_user === 1,
  };
}

export async function listProfileFields(db: Db, realmId: number): Promise<ProfileField[]> {
  const rows = await db.selectFrom('custom_profile_fields').selectAll().where('realm_id', '=', realmId).orderBy('order').orderBy('id').execute();
  return rows.map(toField);
}

const MAX_ID = 2 ** 31 - 1;

export async function findProfileField(db: Db, realmId: number, id: number): Promise<ProfileField | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) return undefined;
  const row = await db.selectFrom('custom_profile_fields').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return row && toField(row);
}

export type ProfileFieldChanges = Partial<Pick<ProfileField, 'name' | 'hint' | 'fieldData' | 'order' | 'displayInProfileSummary' | 'required' | 'editableByUser'>>;

function columns(c: ProfileFieldChanges): Updateable<CustomProfileFieldTable> {
  const v: Updateable<CustomProfileFieldTable> = {};
  if (c.name !== undefined) v.name = c.name;
  if (c.hint !== undefined) v.hint = c.hint;
  if (c.fieldData !== undefined) v.field_data = c.fieldData;
  if (c.order !== undefined) v.order = c.order;
  if (c.displayInProfileSummary !== undefined) v.display_in_profile_summary = c.displayInProfileSummary ? 1 : 0;
  if (c.required !== undefined) v.required = c.required ? 1 : 0;
  if (c.editableByUser !== undefined) v.editable_by_user = c.editableByUser ? 1 : 0;
  return v;
}

// A new field goes last: its order is its id, as in the reference server.
export async function insertProfileField(db: Db, realmId: number, f: Omit<ProfileField, 'id' | 'realmId' | 'order'>): Promise<number> {
  const row = await db
    .insertInto('custom_profile_fields')
    .values({ ...columns(f), realm_id: realmId, field_type: f.type, name: f.name })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('custom_profile_fields').set({ order: row.id }).where('id', '=', row.id).execute();
  return row.id;
}

export async function updateProfileField(db: Db, id: number, changes: ProfileFieldChanges): Promise<void> {
  const v = columns(changes);
  if (Object.keys(v).length) await db.updateTable('custom_profile_fields').set(v).where('id', '=', id).execute();
}

export async function deleteProfileField(db: Db, id: number): Promise<void> {
  await db.deleteFrom('custom_profile_field_values').where('field_id', '=', id).execute();
  await db.deleteFrom('custom_profile_fields').where('id', '=', id).execute();
}

// Profile data by user: field id → value (and rendered_value for Markdown fields). `userIds` null: every user.
export async function profileValues(db: Db, realmId: number, userIds: number[] | null): Promise<Map<number, Record<string, ProfileValue>>> {
  let q = db
    .selectFrom('custom_profile_field_values as v')
    .innerJoin('custom_profile_fields as f', 'f.id', 'v.field_id')
    .select(['v.user_id', 'v.field_id', 'v.value', 'v.rendered_value'])
    .where('f.realm_id', '=', realmId);
  if (userIds) {
    if (!userIds.length) return new Map();
    q = q.where('v.user_id', 'in', userIds);
  }
  const out = new Map<number, Record<string, ProfileValue>>();
  for (const r of await q.execute()) {
    let data = out.get(r.user_id);
    if (!data) out.set(r.user_id, (data = {}));
    data[String(r.field_id)] = r.rendered_value === null ? { value: r.value } : { value: r.value, rendered_value: r.rendered_value };
  }
  return out;
}

export async function findProfileValue(db: Db, userId: number, fieldId: number): Promise<ProfileValue | undefined> {
  const r = await db.selectFrom('custom_profile_field_values').selectAll().where('user_id', '=', userId).where('field_id', '=', fieldId).executeTakeFirst();
  return r && (r.rendered_value === null ? { value: r.value } : { value: r.value, rendered_value: r.rendered_value });
}

export async function saveProfileValue(db: Db, userId: number, fieldId: number, value: string, rendered: string | null, exists: boolean): Promise<void> {
  if (exists) {
    await db.updateTable('custom_profile_field_values').set({ value, rendered_value: rendered }).where('user_id', '=', userId).where('field_id', '=', fieldId).execute();
  } else {
    await db.insertInto('custom_profile_field_values').values({ user_id: userId, field_id: fieldId, value, rendered_value: rendered }).execute();
  }
}

export async function deleteProfileValue(db: Db, userId: number, fieldId: number): Promise<boolean> {
  const r = await db.deleteFrom('custom_profile_field_values').where('user_id', '=', userId).where('field_id', '=', fieldId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// Removes the values of a select field that are no longer options; returns whose values went.
// The delete repeats the condition rather than listing the users, whose number only the organization bounds.
export async function deleteValuesOutside(db: Db, fieldId: number, keep: string[]): Promise<number[]> {
  let q = db.selectFrom('custom_profile_field_values').select('user_id').where('field_id', '=', fieldId);
  if (keep.length) q = q.where('value', 'not in', keep);
  const users = (await q.execute()).map((r) => r.user_id);
  let del = db.deleteFrom('custom_profile_field_values').where('field_id', '=', fieldId);
  if (keep.length) del = del.where('value', 'not in', keep);
  if (users.length) await del.execute();
  return users;
}
