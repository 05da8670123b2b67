// Custom profile fields: the organization's definitions (administrators), their events and register blocks.
// Users' values are in profile-data.test.ts.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';
import { takeUntil } from './helpers/messages.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const create = (params: Record<string, ParamValue>, who: SeedName = 'iago') => server.as(who).post('/realm/profile_fields', params);
const fields = async () => assertSuccess(await server.as('hamlet').get('/realm/profile_fields')).custom_fields as Record<string, any>[];
const EDITOR = { Vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

test('register blocks: custom_profile_fields and the field types', async () => {
  const reg = assertSuccess(await server.as('polonius').post('/register', { fetch_event_types: ['custom_profile_fields'] }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  assert.deepEqual(reg.custom_profile_fields, []);
  assert.deepEqual(reg.custom_profile_field_types, {
    SHORT_TEXT: { id: 1, name: 'Text (short)' }, LONG_TEXT: { id: 2, name: 'Text (long)' }, SELECT: { id: 3, name: 'List of options' },
    DATE: { id: 4, name: 'Date' }, URL: { id: 5, name: 'Link' }, USER: { id: 6, name: 'Users' },
    EXTERNAL_ACCOUNT: { id: 7, name: 'External account' }, PRONOUNS: { id: 8, name: 'Pronouns' },
  });
});

test('administrators create fields of every type; everyone gets the new list', async () => {
  const l = await Listeners.open(server, ['hamlet', 'polonius', 'bot', 'lear'], { event_types: ['custom_profile_fields'] });
  const made = assertSuccess(await create({ name: 'Phone number', field_type: 1, hint: 'With the country code' }));
  assertMatchesSchema('/realm/profile_fields', 'post', made);
  const [event] = await takeUntil(l, 'hamlet', 'custom_profile_fields');
  assert.deepEqual(event.fields, [{ id: made.id, name: 'Phone number', type: 1, hint: 'With the country code', field_data: '', order: made.id, required: false, editable_by_user: true }]);
  for (const name of ['polonius', 'bot'] as SeedName[]) assert.equal((await l.take(name, 'custom_profile_fields')).length, 1, name);
  assert.deepEqual(await l.take('lear'), [], 'another organization hears nothing');

  const ids: Record<string, number> = { phone: made.id };
  ids.bio = assertSuccess(await create({ name: 'Biography', field_type: 2, required: true })).id;
  ids.editor = assertSuccess(await create({ name: 'Favorite editor', field_type: 3, field_data: EDITOR, display_in_profile_summary: true }, 'desdemona')).id;
  ids.birthday = assertSuccess(await create({ name: 'Birthday', field_type: 4, field_data: { ignored: 'for dates' } })).id;
  ids.site = assertSuccess(await create({ name: 'Website', field_type: 5, editable_by_user: false })).id;
  ids.mentor = assertSuccess(await create({ name: 'Mentor', field_type: 6 })).id;
  ids.github = assertSuccess(await create({ field_type: 7, field_data: { subtype: 'github' } })).id;
  ids.mastodon = assertSuccess(await create({ name: 'Mastodon', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://mastodon.social/@%(username)s' } })).id;
  ids.pronouns = assertSuccess(await create({ name: 'Pronouns', field_type: 8 })).id;

  const listed = await fields();
  assertMatchesSchema('/realm/profile_fields', 'get', { result: 'success', msg: '', custom_fields: listed });
  const byId = new Map(listed.map((f) => [f.id, f]));
  assert.deepEqual(listed.map((f) => f.id), Object.values(ids), 'in creation order');
  assert.equal(byId.get(ids.bio)!.required, true);
  assert.equal(byId.get(ids.editor)!.display_in_profile_summary, true);
  assert.deepEqual(JSON.parse(byId.get(ids.editor)!.field_data), EDITOR);
  assert.equal(byId.get(ids.birthday)!.field_data, '', 'only select and external-account fields keep data');
  assert.equal(byId.get(ids.site)!.editable_by_user, false);
  // A default external account takes its label and hint from the preset.
  assert.deepEqual([byId.get(ids.github)!.name, byId.get(ids.github)!.hint, JSON.parse(byId.get(ids.github)!.field_data)], ['GitHub', 'Enter your GitHub username', { subtype: 'github' }]);
  assert.ok(!('display_in_profile_summary' in byId.get(ids.phone)!), 'sent only when true');

  const reg = assertSuccess(await server.as('cordelia').post('/register', { fetch_event_types: ['custom_profile_fields'] }));
  assert.deepEqual(reg.custom_profile_fields, listed);
});

test('only administrators and owners define fields', async () => {
  for (const name of ['shiva', 'hamlet', 'polonius', 'bot'] as SeedName[]) {
    assertError(await create({ name: `By ${name}`, field_type: 1 }, name), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await server.as(name).patch('/realm/profile_fields', { order: [] }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  }
  const id = (await fields())[0].id;
  assertError(await server.as('hamlet').patch(`/realm/profile_fields/${id}`, { name: 'Mine' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await server.as('shiva').delete(`/realm/profile_fields/${id}`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assert.ok((await fields()).every((f) => !f.name.startsWith('By ')));
});

test('definitions are validated', async () => {
  const bad: [Record<string, ParamValue>, string][] = [
    [{ name: '  ', field_type: 1 }, 'Label cannot be blank.'],
    [{ field_type: 1 }, 'Label cannot be blank.'],
    [{ name: 'n'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
    [{ name: 'Hinted', field_type: 1, hint: 'h'.repeat(81) }, 'hint is too long (limit: 80 characters)'],
    [{ name: 'Odd', field_type: 9 }, 'Invalid field type.'],
    [{ name: 'Odd', field_type: 0 }, 'Invalid field type.'],
    [{ name: 'Phone number', field_type: 1 }, 'A field with that label already exists.'],
    [{ name: 'Choice', field_type: 3 }, 'Field must have at least one choice.'],
    [{ name: 'Choice', field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
    [{ name: 'Choice', field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } }, "'value' cannot be blank."],
    [{ name: 'Choice', field_type: 3, field_data: { a: { order: '1' } } }, 'text key is missing from field_data'],
    [{ name: 'Choice', field_type: 3, field_data: { a: { text: ' ', order: '1' } } }, 'field_data["text"] cannot be blank.'],
    [{ name: 'Choice', field_type: 3, field_data: { a: { text: 'A', order: '1', color: 'red' } } }, 'Unexpected arguments: color'],
    [{ name: 'Choice', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } }, 'Field must not have duplicate choices.'],
    [{ name: 'Account', field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
    [{ name: 'Account', field_type: 7 }, 'subtype key is missing from field_data'],
    [{ name: 'Account', field_type: 7, field_data: { subtype: 'custom' } }, 'Custom external account must define URL pattern'],
    [{ name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://example.com/' } }, "URL pattern must contain '%(username)s'."],
    [{ name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'not a url %(username)s' } }, 'field_data["url_pattern"] is not a URL'],
    [{ name: 'Essay', field_type: 2, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
    [{ name: 'Buddy', field_type: 6, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
  ];
  for (const [params, msg] of bad) assertError(await create(params), 400, 'BAD_REQUEST', msg);
  assertError(await create({ name: 'No type' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'field_type' argument");
  // At most two fields in the profile summary (one is there already).
  const second = assertSuccess(await create({ name: 'Team', field_type: 1, display_in_profile_summary: true })).id;
  assertError(await create({ name: 'Third', field_type: 1, display_in_profile_summary: true }), 400, 'BAD_REQUEST',
    'Only 2 custom profile fields can be displayed in the profile summary.');
  assertSuccess(await server.as('iago').delete(`/realm/profile_fields/${second}`));
});

test('fields are edited, reordered and deleted, each change announced', async () => {
  const list = await fields();
  const phone = list.find((f) => f.name === 'Phone number')!;
  const github = list.find((f) => f.name === 'GitHub')!;
  const l = await Listeners.open(server, ['cordelia'], { event_types: ['custom_profile_fields'] });

  assertSuccess(await server.as('iago').patch(`/realm/profile_fields/${phone.id}`, { name: 'Telephone', hint: 'Work number', required: true, editable_by_user: false }));
  let [event] = await takeUntil(l, 'cordelia', 'custom_profile_fields');
  assert.deepEqual(event.fields.find((f: { id: number }) => f.id === phone.id),
    { ...phone, name: 'Telephone', hint: 'Work number', required: true, editable_by_user: false });

  assertError(await server.as('iago').patch(`/realm/profile_fields/${phone.id}`, { name: 'Biography' }), 400, 'BAD_REQUEST', 'A field with that label already exists.');
  assertError(await server.as('iago').patch(`/realm/profile_fields/${phone.id}`, { name: ' ' }), 400, 'BAD_REQUEST', 'Label cannot be blank.');
  assertError(await server.as('iago').patch('/realm/profile_fields/999999', { name: 'Gone' }), 400, 'BAD_REQUEST', 'Field id 999999 not found.');
  // Default external accounts keep their label; only their flags change.
  assertError(await server.as('iago').patch(`/realm/profile_fields/${github.id}`, { name: 'Code' }), 400, 'BAD_REQUEST', 'Default custom field cannot be updated.');
  assertSuccess(await server.as('iago').patch(`/realm/profile_fields/${github.id}`, { display_in_profile_summary: true, name: 'GitHub' }));
  assertError(await server.as('iago').patch(`/realm/profile_fields/${phone.id}`, { display_in_profile_summary: true }), 400, 'BAD_REQUEST',
    'Only 2 custom profile fields can be displayed in the profile summary.');
  await l.clear();

  const reversed = (await fields()).map((f) => f.id).reverse();
  assertSuccess(await server.as('desdemona').patch('/realm/profile_fields', { order: reversed }));
  [event] = await takeUntil(l, 'cordelia', 'custom_profile_fields');
  assert.deepEqual(event.fields.map((f: { id: number }) => f.id), reversed);
  assert.deepEqual(event.fields.map((f: { order: number }) => f.order), reversed.map((_, i) => i));
  assert.deepEqual((await fields()).map((f) => f.id), reversed);
  assertError(await server.as('iago').patch('/realm/profile_fields', { order: reversed.slice(1) }), 400, 'BAD_REQUEST', 'Invalid order mapping.');

  assertSuccess(await server.as('iago').delete(`/realm/profile_fields/${phone.id}`));
  [event] = await takeUntil(l, 'cordelia', 'custom_profile_fields');
  assert.ok(!event.fields.some((f: { id: number }) => f.id === phone.id));
  assertError(await server.as('iago').delete(`/realm/profile_fields/${phone.id}`), 400, 'BAD_REQUEST', `Field id ${phone.id} not found.`);
  // Fields of another organization are not found.
  assertError(await server.as('lear').patch(`/realm/profile_fields/${github.id}`, { hint: 'x' }), 400, 'BAD_REQUEST', `Field id ${github.id} not found.`);
});
