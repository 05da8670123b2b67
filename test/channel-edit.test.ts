import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import type { ParamValue, Reply } from './helpers/client.js';

let server: TestServer;
let groups: Record<string, number>;
before(async () => {
  server = await startTestServer();
  const res = await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] });
  groups = Object.fromEntries(res.body.realm_user_groups.map((g: { name: string; id: number }) => [g.name, g.id]));
});
after(() => server.close());

const EVERYONE: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];
let n = 0;
const unique = (base: string) => `${base} ${++n}`;
const id = (who: SeedName) => server.users[who].id;

// Changes the default organization directly: the test must not depend on the organization settings API.
async function withDb<T>(fn: (db: any, realmId: number) => Promise<T>): Promise<T> {
  const { loadConfig } = await import('../src/config.js');
  const { openApp } = await import('../src/server.js');
  const { findRealmBySubdomain } = await import('../src/store/realms.js');
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    return await fn(app.db, (await findRealmBySubdomain(app.db, ''))!.id);
  } finally {
    app.limiter.close();
    await database.close();
  }
}
async function setRealmSettings(settings: Record<string, unknown>) {
  const { findRealm, updateRealm } = await import('../src/store/realms.js');
  await withDb(async (db, realmId) => updateRealm(db, realmId, { settings: { ...(await findRealm(db, realmId))!.settings, ...settings } }));
}
async function createFolder(archived = false): Promise<number> {
  return withDb(async (db, realmId) => {
    const row = await db.insertInto('channel_folders')
      .values({ realm_id: realmId, name: unique('Folder'), name_key: unique('folder'), date_created: 0, is_archived: archived ? 1 : 0 })
      .returning('id').executeTakeFirstOrThrow();
    return row.id as number;
  });
}

async function create(who: SeedName, params: Record<string, ParamValue> = {}, base = 'Channel'): Promise<number> {
  const name = unique(base);
  const res = await server.as(who).post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
  assert.equal(res.status, 200, res.text);
  return (await server.as(who).get('/get_stream_id', { stream: name })).body.stream_id;
}
const patch = (who: SeedName, stream: number, params: Record<string, ParamValue>) => server.as(who).patch(`/streams/${stream}`, params);
const view = async (who: SeedName, stream: number) => (await server.as(who).get(`/streams/${stream}`)).body.stream;

function ok(res: Reply) {
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { result: 'success', msg: '' });
}
function refused(res: Reply, msg: string, code = 'BAD_REQUEST', status = 400) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

// The stream, subscription and default_streams events each user received since the last take.
async function streamEvents(l: Listeners, names: SeedName[]) {
  const out = {} as Record<SeedName, Record<string, any>[]>;
  for (const who of names) out[who] = (await l.take(who)).filter((e) => e.type === 'stream' || e.type === 'subscription' || e.type === 'default_streams');
  return out;
}

describe('editing every field', () => {
  test('each change is applied, announced to who may know of the channel, and shown by GET /streams/{id}', async () => {
    const stream = await create('hamlet');
    const l = await Listeners.open(server, EVERYONE);
    const expectUpdate = async (property: string, value: unknown, extra: Record<string, unknown> = {}) => {
      const got = await streamEvents(l, EVERYONE);
      for (const who of EVERYONE) {
        const updates = got[who].filter((e) => e.type === 'stream' && e.property === property);
        if (who === 'polonius') assert.deepEqual(updates, [], 'guests do not know of public channels');
        else {
          assert.equal(updates.length, 1, `${who}: ${property} ${JSON.stringify(got[who])}`);
          const { id: _id, ...event } = updates[0];
          assert.deepEqual(event, { type: 'stream', op: 'update', stream_id: stream, name: event.name, property, value, ...extra });
        }
      }
      return got;
    };

    ok(await patch('hamlet', stream, { description: 'Where *Hamlet*\nbroods' }));
    await expectUpdate('description', 'Where *Hamlet* broods', { rendered_description: '<p>Where <em>Hamlet</em> broods</p>' });
    const renamed = unique('Elsinore');
    const before = (await view('hamlet', stream)).name;
    ok(await patch('hamlet', stream, { new_name: `  ${renamed} ` }));
    const got = await expectUpdate('name', renamed);
    assert.equal(got.iago.find((e) => e.property === 'name')!.name, before, 'the rename event names the channel by its old name');
    ok(await patch('hamlet', stream, { new_name: renamed.toUpperCase() }));
    await expectUpdate('name', renamed.toUpperCase());
    ok(await patch('hamlet', stream, { topics_policy: 'disable_empty_topic' }));
    await expectUpdate('topics_policy', 'disable_empty_topic');
    const folder = await createFolder();
    ok(await patch('hamlet', stream, { folder_id: folder }));
    await expectUpdate('folder_id', folder);
    for (const [value, stored] of [[30, 30], ['unlimited', -1], ['realm_default', null]] as const) {
      ok(await patch('desdemona', stream, { message_retention_days: value }));
      await expectUpdate('message_retention_days', stored);
    }
    ok(await patch('hamlet', stream, { can_send_message_group: { new: groups['role:moderators'], old: groups['role:everyone'] } }));
    await expectUpdate('can_send_message_group', groups['role:moderators']);
    const members = { direct_members: [id('cordelia')], direct_subgroups: [groups['role:administrators']] };
    ok(await patch('hamlet', stream, { can_remove_subscribers_group: { new: members } }));
    await expectUpdate('can_remove_subscribers_group', members);

    const { name, description, rendered_description, topics_policy, folder_id, message_retention_days, can_send_message_group, stream_post_policy, can_remove_subscribers_group } = await view('cordelia', stream);
    assert.deepEqual(
      { name, description, rendered_description, topics_policy, folder_id, message_retention_days, can_send_message_group, stream_post_policy, can_remove_subscribers_group },
      {
        name: renamed.toUpperCase(), description: 'Where *Hamlet* broods', rendered_description: '<p>Where <em>Hamlet</em> broods</p>', topics_policy: 'disable_empty_topic',
        folder_id: folder, message_retention_days: null, can_send_message_group: groups['role:moderators'], stream_post_policy: 4, can_remove_subscribers_group: members,
      },
    );

    ok(await patch('hamlet', stream, { folder_id: 'null' })); // the test client drops null values
    await expectUpdate('folder_id', null);
    ok(await patch('hamlet', stream, { description: 'Where *Hamlet* broods' }));
    assert.deepEqual((await streamEvents(l, ['iago'])).iago, [], 'an unchanged value is not announced');
  });

  test('default channels: administrators only, announced to every non-guest', async () => {
    const stream = await create('hamlet');
    refused(await patch('hamlet', stream, { is_default_stream: true }), 'You do not have permission to change default channels.');
    const l = await Listeners.open(server, EVERYONE);
    ok(await patch('iago', stream, { is_default_stream: true }));
    for (const who of EVERYONE) {
      const events = (await l.take(who)).filter((e) => e.type === 'default_streams');
      assert.equal(events.length, who === 'polonius' ? 0 : 1, who);
      if (events.length) assert.ok(events[0].default_streams.some((s: { stream_id: number }) => s.stream_id === stream));
    }
    const listed = (await server.as('hamlet').get('/streams', { include_default: true })).body.streams.find((s: any) => s.stream_id === stream);
    assert.equal(listed.is_default, true);
    refused(await patch('iago', stream, { is_private: true }), 'A default channel cannot be private.');
    ok(await patch('iago', stream, { is_default_stream: false }));
    const after = (await l.take('hamlet')).find((e) => e.type === 'default_streams');
    assert.ok(!after!.default_streams.some((s: { stream_id: number }) => s.stream_id === stream));
  });

  test('privacy: newcomers get the channel, leavers lose it, the rest get invite_only with its companions', async () => {
    const stream = await create('hamlet', { invite_only: true, principals: [id('hamlet'), id('shiva')] });
    const l = await Listeners.open(server, EVERYONE);
    ok(await patch('hamlet', stream, { is_private: false }));
    const opened = await streamEvents(l, EVERYONE);
    for (const who of ['cordelia', 'bot'] as const) {
      assert.deepEqual(opened[who].map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/peer_add'], who);
      assert.equal(opened[who][0].streams[0].invite_only, false);
      assert.deepEqual(opened[who][1].user_ids, [id('shiva'), id('hamlet')].sort((a, b) => a - b));
    }
    for (const who of ['desdemona', 'iago', 'shiva', 'hamlet'] as const) {
      const { id: _id, ...event } = opened[who][0];
      assert.deepEqual(event, { type: 'stream', op: 'update', stream_id: stream, name: event.name, property: 'invite_only', value: false, history_public_to_subscribers: true, is_web_public: false });
    }
    assert.deepEqual(opened.polonius, []);
    assert.equal((await view('cordelia', stream)).invite_only, false);

    ok(await patch('hamlet', stream, { is_private: true }));
    const closed = await streamEvents(l, EVERYONE);
    for (const who of ['cordelia', 'bot'] as const) {
      assert.deepEqual(closed[who].map((e) => `${e.type}/${e.op}`), ['stream/delete'], who);
      assert.deepEqual(closed[who][0].stream_ids, [stream]);
    }
    assert.equal(closed.iago[0].value, true);
    assert.equal(closed.iago[0].history_public_to_subscribers, false, 'a channel made private protects its history unless told');
    refused(await server.as('cordelia').get(`/streams/${stream}`), 'Invalid channel ID');
    ok(await patch('hamlet', stream, { history_public_to_subscribers: true }));
    assert.equal((await view('iago', stream)).history_public_to_subscribers, true);
    assert.deepEqual((await streamEvents(l, ['cordelia'])).cordelia, [], 'no event about a private channel to outsiders');
  });

  test('web-public channels need the organization setting and the permission; guests then learn of them', async () => {
    const stream = await create('desdemona');
    refused(await patch('desdemona', stream, { is_web_public: true }), 'Web-public channels are not enabled.');
    await setRealmSettings({ enable_spectator_access: true });
    try {
      refused(await patch('iago', stream, { is_web_public: true }), 'Insufficient permission');
      refused(await patch('desdemona', stream, { is_web_public: true, is_private: true }), 'Invalid parameters');
      const l = await Listeners.open(server, ['polonius', 'hamlet']);
      ok(await patch('desdemona', stream, { is_web_public: true }));
      assert.deepEqual((await l.take('polonius', 'stream')).map((e) => e.op), ['create']);
      const [update] = await l.take('hamlet', 'stream');
      assert.deepEqual([update.property, update.value, update.is_web_public], ['invite_only', false, true]);
      assert.equal((await view('polonius', stream)).is_web_public, true);
      ok(await patch('desdemona', stream, { is_web_public: false }));
      assert.deepEqual((await l.take('polonius', 'stream')).map((e) => e.op), ['delete']);
    } finally {
      await setRealmSettings({ enable_spectator_access: false });
    }
  });
});

describe('refusals', () => {
  test('invalid values, with the exact message and code', async () => {
    const stream = await create('hamlet');
    const other = await create('hamlet', {}, 'Taken');
    const otherName = (await view('hamlet', other)).name;
    const name = (await view('hamlet', stream)).name;
    const cases: [SeedName, Record<string, ParamValue>, string, string?, number?][] = [
      ['hamlet', { history_public_to_subscribers: false }, 'Invalid parameters'],
      ['hamlet', { new_name: ` ${name} ` }, 'Channel already has that name.'],
      ['hamlet', { new_name: otherName.toLowerCase() }, `Channel '${otherName.toLowerCase()}' already exists`, 'CHANNEL_ALREADY_EXISTS', 409],
      ['hamlet', { new_name: '  ' }, "Channel name can't be empty."],
      ['hamlet', { new_name: 'x'.repeat(61) }, 'Channel name too long (limit: 60 characters).'],
      ['hamlet', { description: 'x'.repeat(1025) }, 'Channel description too long (limit: 1024 characters).'],
      ['iago', { message_retention_days: 30 }, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'],
      ['desdemona', { message_retention_days: 'often' }, "Bad value for 'message_retention_days': often"],
      ['hamlet', { is_archived: true }, 'Channels are archived with DELETE /streams/{stream_id}.'],
      ['hamlet', { is_archived: false }, 'Channel is not currently deactivated'],
      ['hamlet', { folder_id: 999999 }, 'Invalid channel folder ID'],
      ['hamlet', { topics_policy: 'sometimes' }, 'Invalid topics_policy: sometimes'],
      ['hamlet', { can_send_message_group: { new: 999999 } }, 'Invalid user group'],
      ['hamlet', { can_send_message_group: { new: groups['role:nobody'], old: groups['role:members'] } }, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'],
      ['hamlet', { can_administer_channel_group: { new: groups['role:everyone'] } }, "'can_administer_channel_group' setting cannot be set to 'role:everyone' group."],
      ['hamlet', { can_send_message_group: 5 }, 'can_send_message_group is invalid: Expected object'],
      ['hamlet', { is_private: 'maybe' }, 'is_private is not a boolean'],
    ];
    for (const [who, params, msg, code, status] of cases) refused(await patch(who, stream, params), msg, code, status);
    refused(await patch('hamlet', stream, { folder_id: await createFolder(true) }), 'Channel folder is archived.');
    const mismatch = await patch('hamlet', stream, { can_send_message_group: { new: groups['role:nobody'], old: groups['role:members'] } });
    assert.equal(mismatch.body.setting_name, 'can_send_message_group');
    assert.equal((await view('hamlet', stream)).can_send_message_group, groups['role:everyone'], 'nothing changed');
    ok(await patch('hamlet', stream, { can_send_message_group: { new: groups['role:members'], old: { direct_members: [], direct_subgroups: [groups['role:everyone']] } } }));
  });

  test('a failed request changes nothing, even the fields before the bad one', async () => {
    const stream = await create('hamlet');
    refused(await patch('hamlet', stream, { description: 'changed', new_name: '' }), "Channel name can't be empty.");
    assert.equal((await view('hamlet', stream)).description, '');
  });

  test('rule 2: protected history needs everyone to create topics', async () => {
    const stream = await create('hamlet', { invite_only: true });
    refused(await patch('hamlet', stream, { can_create_topic_group: { new: groups['role:members'] } }), "Channels with protected history require 'can_create_topic_group' to be 'role:everyone'.");
    ok(await patch('hamlet', stream, { history_public_to_subscribers: true, can_create_topic_group: { new: groups['role:members'] } }));
    refused(await patch('hamlet', stream, { history_public_to_subscribers: false }), "Channels with protected history require 'can_create_topic_group' to be 'role:everyone'.");
  });

  test('rule 3: only the empty topic when every message is in it; the topics policy needs the organization permission', async () => {
    const stream = await create('hamlet');
    ok(await patch('hamlet', stream, { topics_policy: 'empty_topic_only' }));
    const busy = await create('hamlet');
    const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: busy, topic: 'plans', content: 'hello' });
    assert.equal(sent.status, 200, sent.text);
    refused(await patch('hamlet', busy, { topics_policy: 'empty_topic_only' }), 'To enable this configuration, all messages in this channel must be in the "general chat" topic.');
    await setRealmSettings({ can_set_topics_policy_group: 'role:administrators' });
    try {
      refused(await patch('hamlet', busy, { topics_policy: 'allow_empty_topic' }), 'Insufficient permission');
      ok(await patch('iago', busy, { topics_policy: 'allow_empty_topic' }));
    } finally {
      await setRealmSettings({ can_set_topics_policy_group: 'role:members' });
    }
  });
});

describe('who may edit', () => {
  test('per role: owners, administrators and the creator may; others are told so or see no channel', async () => {
    const stream = await create('iago');
    const byCordelia = await create('cordelia');
    for (const who of ['desdemona', 'iago'] as const) ok(await patch(who, stream, { description: `by ${who}` }));
    for (const who of ['shiva', 'hamlet', 'bot'] as const) {
      refused(await patch(who, stream, { description: 'no' }), 'You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
    }
    refused(await patch('polonius', stream, { description: 'no' }), 'Invalid channel ID', 'BAD_REQUEST');
    refused(await patch('hamlet', 999999, { description: 'no' }), 'Invalid channel ID');
    ok(await patch('cordelia', byCordelia, { description: 'mine' }));
    ok(await patch('cordelia', byCordelia, { can_administer_channel_group: { new: { direct_members: [id('cordelia'), id('shiva')], direct_subgroups: [] } } }));
    ok(await patch('shiva', byCordelia, { description: 'shared' }));
    const subscribedGuest = await create('hamlet', { principals: [id('hamlet'), id('polonius')] });
    refused(await patch('polonius', subscribedGuest, { description: 'no' }), 'You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
  });

  test('private channels: outsiders see no channel; an unsubscribed administrator changes metadata settings only', async () => {
    const stream = await create('hamlet', { invite_only: true });
    for (const who of ['cordelia', 'shiva', 'bot', 'polonius'] as const) refused(await patch(who, stream, { description: 'no' }), 'Invalid channel ID');
    ok(await patch('iago', stream, { description: 'set by an administrator' }));
    ok(await patch('iago', stream, { can_send_message_group: { new: groups['role:members'] } }));
    ok(await patch('iago', stream, { can_remove_subscribers_group: { new: groups['role:moderators'] } }));
    for (const setting of ['can_add_subscribers_group', 'can_subscribe_group', 'can_delete_any_message_group', 'can_move_messages_within_channel_group', 'can_resolve_topics_group']) {
      refused(await patch('iago', stream, { [setting]: { new: groups['role:moderators'] } }), 'Channel content access is required.');
    }
    refused(await patch('iago', stream, { is_private: false }), 'Channel content access is required.');
    refused(await patch('iago', stream, { history_public_to_subscribers: true }), 'Channel content access is required.');
    ok(await patch('hamlet', stream, { can_subscribe_group: { new: groups['role:moderators'] } }));
  });

  test('a group setting granting metadata access creates and deletes the channel for those it adds and drops', async () => {
    const stream = await create('hamlet', { invite_only: true });
    const l = await Listeners.open(server, ['cordelia', 'iago']);
    ok(await patch('hamlet', stream, { can_subscribe_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [] } } }));
    assert.deepEqual((await l.take('cordelia')).map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/peer_add']);
    assert.deepEqual((await l.take('iago', 'stream')).map((e) => e.property), ['can_subscribe_group']);
    assert.equal((await view('cordelia', stream)).stream_id, stream);
    ok(await patch('hamlet', stream, { can_subscribe_group: { new: groups['role:nobody'] } }));
    assert.deepEqual((await l.take('cordelia')).map((e) => `${e.type}/${e.op}`), ['stream/delete']);
  });
});

describe('archiving', () => {
  test('DELETE archives: the update to capable clients, a deletion to the rest, default channels updated', async () => {
    const stream = await create('hamlet', { invite_only: true, principals: [id('hamlet'), id('shiva')] });
    refused(await server.as('shiva').delete(`/streams/${stream}`), 'You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
    refused(await server.as('cordelia').delete(`/streams/${stream}`), 'Invalid channel ID');
    const old = await Listeners.open(server, ['shiva', 'cordelia', 'iago']);
    const modern = await Listeners.open(server, ['shiva'], { client_capabilities: { archived_channels: true } });
    ok(await server.as('hamlet').delete(`/streams/${stream}`));
    const deleted = await old.take('shiva', 'stream');
    assert.deepEqual(deleted.map((e) => e.op), ['delete']);
    assert.deepEqual([deleted[0].stream_ids, deleted[0].streams[0].stream_id, deleted[0].streams[0].is_archived], [[stream], stream, true]);
    assert.deepEqual(Object.keys(deleted[0]).sort(), ['id', 'op', 'stream_ids', 'streams', 'type'], 'server-only markers are not sent');
    const updates = (await modern.take('shiva', 'stream')).filter((e) => e.op === 'update');
    assert.deepEqual(updates.map((e) => [e.property, e.value, e.stream_id]), [['is_archived', true, stream]]);
    assert.equal((await old.take('iago', 'stream')).length, 1, 'administrators know of every channel');
    assert.deepEqual(await old.take('cordelia'), [], 'no event about a private channel to outsiders');
    assert.equal((await view('shiva', stream)).is_archived, true);
    refused(await server.as('hamlet').delete(`/streams/${stream}`), 'Channel is already deactivated');

    // Archived channels stay editable (feature level 362), then come back.
    ok(await patch('hamlet', stream, { description: 'in the archive', history_public_to_subscribers: true }));
    ok(await patch('hamlet', stream, { is_archived: false }));
    assert.deepEqual((await old.take('shiva', 'stream')).map((e) => [e.op, e.property]), [['update', 'invite_only'], ['update', 'description'], ['create', undefined]]);
    assert.deepEqual((await modern.take('shiva', 'stream')).filter((e) => e.property === 'is_archived').map((e) => e.value), [false]);
    assert.equal((await view('shiva', stream)).is_archived, false);
  });

  test('an archived default channel stops being a default one; an archived channel cannot become one', async () => {
    const stream = await create('iago');
    ok(await patch('iago', stream, { is_default_stream: true }));
    const l = await Listeners.open(server, ['hamlet']);
    ok(await server.as('iago').delete(`/streams/${stream}`));
    const defaults = (await l.take('hamlet')).find((e) => e.type === 'default_streams');
    assert.ok(defaults && !defaults.default_streams.some((s: { stream_id: number }) => s.stream_id === stream));
    refused(await patch('iago', stream, { is_default_stream: true }), 'An archived channel cannot be a default channel.');
    ok(await patch('iago', stream, { is_archived: false, is_default_stream: true }));
  });
});
