// The custom_profile_fields register block.
import type { Db } from '../store/db.js';
import { listProfileFields, type ProfileField } from '../store/profile-fields.js';
import type { Realm } from '../store/realms.js';

export async function profileFieldsState(db: Db, realm: Realm) {
  return {
    custom_profile_fields: (await listProfileFields(db, realm.id)).map(formatProfileField),
    custom_profile_field_types: Object.fromEntries(
      Object.entries(FIELD_TYPE).map(([key, id]) => [key, { id, name: FIELD_TYPE_NAMES[key as keyof typeof FIELD_TYPE] }]),
    ),
  };
}

export function formatProfileField(f: ProfileField): Record<string, unknown> {
  return {
    id: f.id, name: f.name, type: f.type, hint: f.hint, field_data: f.fieldData, order: f.order, required: f.required,
    editable_by_user: f.editableByUser, ...(f.displayInProfileSummary ? { display_in_profile_summary: true } : {}),
  };
}

export const FIELD_TYPE = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

// The register block's custom_profile_field_types: keyword → {id, name}, named as the reference server does.
export const FIELD_TYPE_NAMES: Record<keyof typeof FIELD_TYPE, string> = {
  SHORT_TEXT: 'Text (short)', LONG_TEXT: 'Text (long)', SELECT: 'List of options', DATE: 'Date', URL: 'Link', USER: 'Users',
  EXTERNAL_ACCOUNT: 'External account', PRONOUNS: 'Pronouns',
};
