// Users' custom profile field values: PATCH/DELETE /users/me/profile_data, administrators through
// PATCH /users/{user_id}, realm_user custom_profile_field events, and profile_data in user objects.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Listeners } from './helpers/events.js';
import { takeUntil } from './helpers/messages.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
const f: Record<string, number> = {};
before(async () => {
  server = await startTestServer();
  const make = async (key: string, params: Record<string, ParamValue>) => {
    const res = await server.as('iago').post('/realm/profile_fields', params);
    assert.equal(res.status, 200, res.text);
    f[key] = res.body.id;
  };
  await make('short', { name: 'Phone', field_type: 1 });
  await make('long', { name: 'Biography', field_type: 2 });
  await make('select', { name: 'Editor', field_type: 3, field_data: { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } } });
  await make('date', { name: 'Birthday', field_type: 4 });
  await make('link', { name: 'Website', field_type: 5 });
  await make('users', { name: 'Mentors', field_type: 6 });
  await make('account', { field_type: 7, field_data: { subtype: 'github' } });
  await make('pronouns', { name: 'Pronouns', field_type: 8 });
  await make('locked', { name: 'Employee number', field_type: 1, editable_by_user: false });
});
after(() => server?.close());

const setOwn = (who: SeedName, data: ParamValue) => server.as(who).patch('/users/me/profile_data', { data });
const profileOf = async (who: SeedName, viewer: SeedName = 'cordelia') =>
  assertSuccess(await server.as(viewer).get(`/users/${server.users[who].id}`, { include_custom_profile_fields: true })).user.profile_data;

test('each field type accepts its values; Markdown fields are rendered', async () => {
  const { hamlet, cordelia } = server.users;
  assertSuccess(await setOwn('hamlet', [
    { id: f.short, value: '+1 *555*' },
    { id: f.long, value: 'I am:\n* The prince of Denmark' },
    { id: f.select, value: 'emacs' },
    { id: f.date, value: '1600-02-29' },
    { id: f.link, value: 'https://hamlet.example.com/blog' },
    { id: f.users, value: [cordelia.id, server.users.iago.id] },
    { id: f.account, value: 'hamlet' },
    { id: f.pronouns, value: 'he/him' },
  ]));
  assert.deepEqual(await profileOf('hamlet'), {
    [f.short]: { value: '+1 *555*', rendered_value: '<p>+1 <em>555</em></p>' },
    [f.long]: { value: 'I am:\n* The prince of Denmark', rendered_value: '<p>I am:</p>\n<ul>\n<li>The prince of Denmark</li>\n</ul>' },
    [f.select]: { value: 'emacs' },
    [f.date]: { value: '1600-02-29' },
    [f.link]: { value: 'https://hamlet.example.com/blog' },
    [f.users]: { value: JSON.stringify([cordelia.id, server.users.iago.id]) },
    [f.account]: { value: 'hamlet' },
    [f.pronouns]: { value: 'he/him' },
  });
  // The same data in GET /users, GET /users/me and the register block.
  const all = assertSuccess(await server.as('polonius').get('/users', { include_custom_profile_fields: true }));
  const mine = await profileOf('hamlet');
  assert.deepEqual(all.members.find((m: { user_id: number }) => m.user_id === hamlet.id).profile_data, mine);
  assert.deepEqual(assertSuccess(await server.as('hamlet').get('/users/me')).profile_data, mine);
  const reg = assertSuccess(await server.as('shiva').post('/register', { fetch_event_types: ['realm_user'] }));
  assert.deepEqual(reg.realm_users.find((u: { user_id: number }) => u.user_id === hamlet.id).profile_data, mine);
  // A user list may also arrive as JSON text; the longest values fit.
  assertSuccess(await setOwn('cordelia', [{ id: f.users, value: `[${hamlet.id}]` }, { id: f.short, value: 's'.repeat(50) }, { id: f.long, value: 'l'.repeat(500) }]));
  assert.equal((await profileOf('cordelia'))[f.users].value, `[${hamlet.id}]`);
});

test('values outside each type are refused with the reference messages, and nothing is written', async () => {
  const { bot, hamlet } = server.users;
  const cases: [unknown, string][] = [
    [{ id: f.short, value: 's'.repeat(51) }, 'Phone is too long (limit: 50 characters)'],
    [{ id: f.pronouns, value: 'p'.repeat(51) }, 'Pronouns is too long (limit: 50 characters)'],
    [{ id: f.account, value: 'g'.repeat(51) }, 'GitHub is too long (limit: 50 characters)'],
    [{ id: f.long, value: 'l'.repeat(501) }, 'Biography is too long (limit: 500 characters)'],
    [{ id: f.short, value: [1] }, 'Phone is not a string'],
    [{ id: f.select, value: 'notepad' }, "'notepad' is not a valid choice for 'Editor'."],
    [{ id: f.date, value: '1601-02-29' }, 'Birthday is not a date'],
    [{ id: f.date, value: 'tomorrow' }, 'Birthday is not a date'],
    [{ id: f.link, value: 'hamlet.example.com' }, 'Website is not a URL'],
    [{ id: f.link, value: 'ftp://example.com/' }, 'Website is not a URL'],
    [{ id: f.users, value: [999999] }, 'Invalid user ID: 999999'],
    [{ id: f.users, value: [bot.id] }, `User with ID ${bot.id} is a bot`],
    [{ id: f.users, value: [server.users.lear.id] }, `Invalid user ID: ${server.users.lear.id}`],
    [{ id: 999999, value: 'x' }, 'Field id 999999 not found.'],
  ];
  for (const [item, msg] of cases) {
    // A valid change first in the same request: it is not applied either.
    assertError(await setOwn('cordelia', [{ id: f.pronouns, value: 'she/her' }, item]), 400, 'BAD_REQUEST', msg);
  }
  assert.equal((await profileOf('cordelia'))[f.pronouns], undefined);
  assertError(await setOwn('cordelia', [{ id: f.short }]), 400, 'BAD_REQUEST', /^data\[0\]/);
  assertError(await setOwn('cordelia', 'nope'), 400, 'BAD_REQUEST', /^data\[0\]/);
  assertError(await setOwn('cordelia', '{"id": 1'), 400, 'INVALID_JSON', /data/);
  // Deactivated users cannot be chosen.
  assertSuccess(await server.as('iago').delete(`/users/${server.users.polonius.id}`));
  assertError(await setOwn('cordelia', [{ id: f.users, value: [server.users.polonius.id] }]), 400, 'BAD_REQUEST', `User with ID ${server.users.polonius.id} is deactivated`);
  assertSuccess(await server.as('iago').post(`/users/${server.users.polonius.id}/reactivate`));
  // Bots have no profile.
  assertError(await setOwn('bot', [{ id: f.short, value: '1' }]), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  assertError(await server.as('bot').delete('/users/me/profile_data', { data: [f.short] }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  assert.ok(hamlet);
});

test('changes are realm_user custom_profile_field events to everyone; clearing sends null', async () => {
  const { shiva } = server.users;
  const l = await Listeners.open(server, ['cordelia', 'polonius', 'shiva', 'lear'], { event_types: ['realm_user'] });
  assertSuccess(await setOwn('shiva', [{ id: f.short, value: '**42**' }, { id: f.select, value: 'vim' }]));
  const events = await takeUntil(l, 'cordelia', 'realm_user', (e) => e.person.custom_profile_field?.id === f.select);
  assert.deepEqual(events.map((e) => e.person), [
    { user_id: shiva.id, custom_profile_field: { id: f.short, value: '**42**', rendered_value: '<p><strong>42</strong></p>' } },
    { user_id: shiva.id, custom_profile_field: { id: f.select, value: 'vim' } },
  ]);
  assert.equal((await l.take('polonius', 'realm_user')).length, 2);
  assert.equal((await l.take('shiva', 'realm_user')).length, 2);
  assert.deepEqual(await l.take('lear'), []);

  // Unchanged values announce nothing; an empty value clears.
  assertSuccess(await setOwn('shiva', [{ id: f.select, value: 'vim' }, { id: f.short, value: '' }]));
  let [event] = await takeUntil(l, 'cordelia', 'realm_user');
  assert.deepEqual(event.person, { user_id: shiva.id, custom_profile_field: { id: f.short, value: null } });
  assert.deepEqual(await l.take('cordelia', 'realm_user'), []);
  assert.equal((await profileOf('shiva'))[f.short], undefined);

  assertSuccess(await server.as('shiva').delete('/users/me/profile_data', { data: [f.select, f.date] }));
  [event] = await takeUntil(l, 'cordelia', 'realm_user');
  assert.deepEqual(event.person, { user_id: shiva.id, custom_profile_field: { id: f.select, value: null } });
  assert.deepEqual(await l.take('cordelia', 'realm_user'), [], 'a field without a value is not announced');
  assertError(await server.as('shiva').delete('/users/me/profile_data', { data: [999999] }), 400, 'BAD_REQUEST', 'Field id 999999 not found.');
  assert.deepEqual(await profileOf('shiva'), {});
});

test('fields not editable by users: administrators set them, for anyone', async () => {
  const { hamlet } = server.users;
  const locked = 'You are not allowed to change this field. Contact an administrator to update it.';
  assertError(await setOwn('hamlet', [{ id: f.locked, value: '7' }]), 400, 'BAD_REQUEST', locked);
  assertError(await server.as('shiva').delete('/users/me/profile_data', { data: [f.locked] }), 400, 'BAD_REQUEST', locked);
  assertSuccess(await setOwn('iago', [{ id: f.locked, value: '1' }]));

  const l = await Listeners.open(server, ['cordelia'], { event_types: ['realm_user'] });
  assertSuccess(await server.as('iago').patch(`/users/${hamlet.id}`, { profile_data: [{ id: f.locked, value: '1001' }, { id: f.pronouns, value: 'they/them' }] }));
  const events = await takeUntil(l, 'cordelia', 'realm_user', (e) => e.person.custom_profile_field?.id === f.pronouns);
  assert.deepEqual(events.map((e) => e.person.custom_profile_field.id), [f.locked, f.pronouns]);
  assert.equal((await profileOf('hamlet'))[f.locked].value, '1001');
  // An administrator clears with null.
  assertSuccess(await server.as('desdemona').patch(`/users/${hamlet.id}`, { profile_data: [{ id: f.locked, value: null }] }));
  assert.equal((await profileOf('hamlet'))[f.locked], undefined);

  for (const name of ['shiva', 'cordelia', 'polonius', 'bot'] as SeedName[]) {
    assertError(await server.as(name).patch(`/users/${hamlet.id}`, { profile_data: [{ id: f.pronouns, value: 'x' }] }), 400,
      'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  }
  assertError(await server.as('iago').patch(`/users/${hamlet.id}`, { profile_data: [{ id: f.date, value: 'soon' }] }), 400, 'BAD_REQUEST', 'Birthday is not a date');
  assertError(await server.as('iago').patch(`/users/${server.users.bot.id}`, { profile_data: [{ id: f.short, value: '1' }] }), 400, 'BAD_REQUEST', 'No such user');
});

test('removing an option clears the values that chose it; deleting a field drops its values', async () => {
  const { cordelia } = server.users;
  assertSuccess(await setOwn('cordelia', [{ id: f.select, value: 'emacs' }]));
  assertSuccess(await setOwn('hamlet', [{ id: f.select, value: 'emacs' }]));
  assertSuccess(await setOwn('polonius', [{ id: f.select, value: 'vim' }]));
  const l = await Listeners.open(server, ['iago'], { event_types: ['realm_user', 'custom_profile_fields'] });
  assertSuccess(await server.as('iago').patch(`/realm/profile_fields/${f.select}`, { field_data: { vim: { text: 'Vim', order: '1' }, nano: { text: 'Nano', order: '2' } } }));
  const events = await takeUntil(l, 'iago', '', (e) => e.type === 'custom_profile_fields');
  const cleared = events.filter((e) => e.type === 'realm_user');
  assert.deepEqual(new Set(cleared.map((e) => e.person.user_id)), new Set([cordelia.id, server.users.hamlet.id]));
  assert.ok(cleared.every((e) => e.person.custom_profile_field.value === null));
  assert.equal((await profileOf('cordelia'))[f.select], undefined);
  assert.equal((await profileOf('polonius'))[f.select].value, 'vim');

  assertSuccess(await server.as('iago').delete(`/realm/profile_fields/${f.long}`));
  assert.equal((await profileOf('hamlet'))[f.long], undefined);
  assertError(await setOwn('hamlet', [{ id: f.long, value: 'x' }]), 400, 'BAD_REQUEST', `Field id ${f.long} not found.`);
});
