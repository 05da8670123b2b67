import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const EVERYONE: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];
let n = 0;
const unique = (base: string) => `${base} ${++n}`;

async function subscribe(name: SeedName, params: Record<string, ParamValue>) {
  return server.as(name).post('/users/me/subscriptions', params);
}

async function streamId(channel: string, as: SeedName = 'iago') {
  const res = await server.as(as).get('/get_stream_id', { stream: channel });
  assert.equal(res.status, 200, res.text);
  return res.body.stream_id as number;
}

describe('creating channels', () => {
  test('a member creates a public channel: events to every non-guest, subscription to the creator', async () => {
    const l = await Listeners.open(server, EVERYONE);
    const name = unique('Denmark');
    const res = await subscribe('hamlet', { subscriptions: [{ name, description: 'A *sunny* place' }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.subscribed, { [server.users.hamlet.id]: [name] });
    assert.deepEqual(res.body.already_subscribed, {});
    assert.ok(!('unauthorized' in res.body));
    for (const who of EVERYONE) {
      const created = await l.take(who);
      const stream = created.filter((e) => e.type === 'stream');
      if (who === 'polonius') assert.equal(stream.length, 0, 'guests do not learn of public channels');
      else {
        assert.equal(stream.length, 1, who);
        assert.equal(stream[0].op, 'create');
        assert.equal(stream[0].streams[0].name, name);
        assert.equal(stream[0].streams[0].rendered_description, '<p>A <em>sunny</em> place</p>');
      }
      const subs = created.filter((e) => e.type === 'subscription');
      if (who === 'hamlet') {
        assert.equal(subs.length, 1);
        assert.equal(subs[0].op, 'add');
        assert.equal(subs[0].subscriptions[0].name, name);
        assert.deepEqual(subs[0].subscriptions[0].subscribers, [server.users.hamlet.id]);
        assert.deepEqual(subs[0].subscriptions[0].can_administer_channel_group, { direct_members: [server.users.hamlet.id], direct_subgroups: [] });
      } else assert.equal(subs.length, 0, who);
    }
  });

  test('every seeded role but guests may create channels; guests may not', async () => {
    for (const who of ['desdemona', 'iago', 'shiva', 'cordelia', 'bot'] as const) {
      const res = await subscribe(who, { subscriptions: [{ name: unique(`By ${who}`) }] });
      assert.equal(res.status, 200, `${who}: ${res.text}`);
    }
    const guest = await subscribe('polonius', { subscriptions: [{ name: unique('Guest channel') }] });
    assert.equal(guest.status, 400);
    assert.equal(guest.body.msg, 'Not allowed for guest users');
  });

  test('creation parameters are checked', async () => {
    const cases: [Record<string, ParamValue>, string, string?][] = [
      [{ subscriptions: [{ name: 'x'.repeat(61) }] }, 'Channel name too long (limit: 60 characters).'],
      [{ subscriptions: [{ name: '   ' }] }, "Channel name can't be empty."],
      [{ subscriptions: [{ name: unique('d'), description: 'x'.repeat(1025) }] }, 'Channel description too long (limit: 1024 characters).'],
      [{ subscriptions: [{ name: unique('h') }], history_public_to_subscribers: false }, 'Invalid parameters'],
      [{ subscriptions: [{ name: unique('w') }], is_web_public: true }, 'Web-public channels are not enabled.'],
      [{ subscriptions: [{ name: unique('g') }], can_add_subscribers_group: 999999 }, 'Invalid user group'],
      [{ subscriptions: [{ name: unique('t') }], topics_policy: 'sometimes' }, 'Invalid topics_policy: sometimes'],
      [{ subscriptions: [{ name: unique('r') }], message_retention_days: 30 }, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'],
      [{ subscriptions: [{ name: unique('m') }], message_retention_days: 'often' }, "Bad value for 'message_retention_days': often"],
      [{ subscriptions: [{ name: unique('p') }], is_default_stream: true }, 'Insufficient permission'],
    ];
    for (const [params, msg, code] of cases) {
      const res = await subscribe('hamlet', params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msg);
      assert.equal(res.body.code, code ?? 'BAD_REQUEST');
    }
    const name = 'x'.repeat(59) + '😀';
    assert.equal((await subscribe('hamlet', { subscriptions: [{ name }] })).status, 200, 'lengths count code points');
  });

  test('private channels with protected history need everyone to create topics', async () => {
    const name = unique('Vault');
    const ok = await subscribe('hamlet', { subscriptions: [{ name }], invite_only: true, history_public_to_subscribers: false });
    assert.equal(ok.status, 200, ok.text);
    const vault = (await server.as('hamlet').get(`/streams/${await streamId(name, 'hamlet')}`)).body.stream;
    assert.equal(vault.history_public_to_subscribers, false);
    assert.equal(vault.invite_only, true);
    const administrators = vault.can_remove_subscribers_group as number;
    const res = await subscribe('hamlet', { subscriptions: [{ name: unique('Vault') }], invite_only: true, history_public_to_subscribers: false, can_create_topic_group: administrators });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, "Channels with protected history require 'can_create_topic_group' to be 'role:everyone'.");
    const internet = await subscribe('hamlet', { subscriptions: [{ name: unique('Open') }], can_add_subscribers_group: { direct_members: [999999], direct_subgroups: [] } });
    assert.equal(internet.body.msg, 'Invalid user ID: 999999');
  });

  test('owners set retention; administrators make default channels', async () => {
    const name = unique('Archive');
    const res = await subscribe('desdemona', { subscriptions: [{ name }], message_retention_days: 'unlimited' });
    assert.equal(res.status, 200, res.text);
    const stream = await server.as('desdemona').get(`/streams/${await streamId(name)}`);
    assert.equal(stream.body.stream.message_retention_days, -1);
    const dflt = unique('Welcome');
    assert.equal((await subscribe('iago', { subscriptions: [{ name: dflt }], is_default_stream: true })).status, 200);
    const reg = await server.as('hamlet').post('/register', { fetch_event_types: ['default_streams'] });
    assert.ok(reg.body.realm_default_streams.some((s: { name: string }) => s.name === dflt));
    const priv = await subscribe('iago', { subscriptions: [{ name: unique('Hidden') }], is_default_stream: true, invite_only: true });
    assert.equal(priv.body.msg, 'A default channel cannot be private.');
    // Creation parameters are not checked when every channel exists already.
    assert.equal((await subscribe('hamlet', { subscriptions: [{ name: dflt }], is_default_stream: true, invite_only: true })).status, 200);
  });
});

describe('subscribing and unsubscribing', () => {
  test('principals by id and e-mail; peers hear of it; already subscribed is reported', async () => {
    const name = unique('Verona');
    await subscribe('hamlet', { subscriptions: [{ name }] });
    const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago', 'polonius']);
    const res = await subscribe('hamlet', { subscriptions: [{ name }], principals: [server.users.cordelia.id, server.users.iago.email, server.users.hamlet.id] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.subscribed, { [server.users.cordelia.id]: [name], [server.users.iago.id]: [name] });
    assert.deepEqual(res.body.already_subscribed, { [server.users.hamlet.id]: [name] });
    const id = await streamId(name);
    const peer = await l.take('hamlet', 'subscription');
    assert.deepEqual(peer.map((e) => e.op), ['peer_add']);
    assert.deepEqual(peer[0].stream_ids, [id]);
    assert.deepEqual(new Set(peer[0].user_ids), new Set([server.users.cordelia.id, server.users.iago.id]));
    const added = await l.take('cordelia', 'subscription');
    assert.deepEqual(added.map((e) => e.op), ['add']);
    assert.equal(added[0].subscriptions[0].stream_id, id);
    assert.deepEqual(await l.take('polonius', 'subscription'), []);
    const members = await server.as('hamlet').get(`/streams/${id}/members`);
    assert.deepEqual(members.body.subscribers, [server.users.iago.id, server.users.hamlet.id, server.users.cordelia.id].sort((a, b) => a - b));
  });

  test('a color given with a channel is the new subscriptions\' color', async () => {
    const name = unique('Painted');
    const res = await subscribe('hamlet', { subscriptions: [{ name, color: '#123abc' }], principals: [server.users.hamlet.id, server.users.cordelia.id] });
    assert.equal(res.status, 200, res.text);
    for (const who of ['hamlet', 'cordelia'] as const) {
      const subs = (await server.as(who).get('/users/me/subscriptions')).body.subscriptions as { name: string; color: string }[];
      assert.equal(subs.find((x) => x.name === name)!.color, '#123abc', who);
    }
    const bad = await subscribe('hamlet', { subscriptions: [{ name, color: 'red' }] });
    assert.deepEqual([bad.status, bad.body.msg], [400, 'add.color is not a valid hex color code']);
  });

  test('unknown principals are refused', async () => {
    const name = unique('Elsinore');
    for (const principal of [999999, 'nobody@zulip.example.com']) {
      const res = await subscribe('hamlet', { subscriptions: [{ name }], principals: [principal] });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.msg, `User not authorized to execute queries on behalf of '${principal}'`);
    }
  });

  test('private channels: invisible to outsiders, unauthorized when not fatal', async () => {
    const name = unique('Secret');
    await subscribe('hamlet', { subscriptions: [{ name }], invite_only: true });
    const id = await streamId(name, 'hamlet');
    for (const who of ['cordelia', 'polonius', 'bot'] as const) {
      const byName = await server.as(who).get('/get_stream_id', { stream: name });
      assert.equal(byName.body.msg, `Invalid channel name '${name}'`);
      const byId = await server.as(who).get(`/streams/${id}`);
      assert.equal(byId.body.msg, 'Invalid channel ID');
      const missing = await server.as(who).get('/streams/999999');
      assert.deepEqual(byId.body, missing.body);
      const list = await server.as(who).get('/streams');
      assert.ok(!list.body.streams.some((s: { name: string }) => s.name === name));
    }
    // Administrators may know of every channel.
    assert.equal((await server.as('iago').get(`/streams/${id}`)).status, 200);
    const all = await server.as('iago').get('/streams', { include_all: true });
    assert.ok(all.body.streams.some((s: { name: string }) => s.name === name));
    const notAdmin = await server.as('hamlet').get('/streams', { include_all: true });
    assert.equal(notAdmin.status, 400);
    const fatal = await subscribe('cordelia', { subscriptions: [{ name }] });
    assert.equal(fatal.body.msg, `Unable to access channel (${name}).`);
    const soft = await subscribe('cordelia', { subscriptions: [{ name }], authorization_errors_fatal: false });
    assert.equal(soft.status, 200);
    assert.deepEqual(soft.body.unauthorized, [name]);
    assert.deepEqual(soft.body.subscribed, {});
    // A subscriber may add others to a private channel.
    const add = await subscribe('hamlet', { subscriptions: [{ name }], principals: [server.users.cordelia.id] });
    assert.equal(add.status, 200, add.text);
    assert.equal((await server.as('cordelia').get(`/streams/${id}`)).status, 200);
  });

  test('guests may not subscribe themselves to public channels', async () => {
    const name = unique('Public');
    await subscribe('hamlet', { subscriptions: [{ name }] });
    const res = await subscribe('polonius', { subscriptions: [{ name }] });
    assert.equal(res.body.msg, 'Not allowed for guest users');
    const byOther = await subscribe('hamlet', { subscriptions: [{ name }], principals: [server.users.polonius.id] });
    assert.equal(byOther.status, 200, byOther.text);
    assert.equal((await server.as('polonius').get('/get_stream_id', { stream: name })).status, 200);
  });

  test('unsubscribing self and others', async () => {
    const name = unique('Leaving');
    await subscribe('hamlet', { subscriptions: [{ name }], principals: [server.users.hamlet.id, server.users.cordelia.id, server.users.shiva.id] });
    const l = await Listeners.open(server, ['hamlet', 'cordelia', 'shiva']);
    const self = await server.as('cordelia').delete('/users/me/subscriptions', { subscriptions: [name] });
    assert.deepEqual(self.body, { result: 'success', msg: '', removed: [name], not_removed: [] });
    const again = await server.as('cordelia').delete('/users/me/subscriptions', { subscriptions: [name] });
    assert.deepEqual(again.body.not_removed, [name]);
    const removed = await l.take('cordelia', 'subscription');
    assert.equal(removed[0].op, 'remove');
    const peers = await l.take('hamlet', 'subscription');
    assert.deepEqual(peers.map((e) => [e.op, e.user_ids]), [['peer_remove', [server.users.cordelia.id]]]);
    const denied = await server.as('hamlet').delete('/users/me/subscriptions', { subscriptions: [name], principals: [server.users.shiva.id] });
    assert.equal(denied.body.msg, 'Insufficient permission');
    const admin = await server.as('iago').delete('/users/me/subscriptions', { subscriptions: [name], principals: [server.users.shiva.id] });
    assert.deepEqual(admin.body.removed, [name]);
    const missing = await server.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['No such channel'] });
    assert.equal(missing.body.code, 'STREAM_DOES_NOT_EXIST');
  });
});

describe('subscription settings and views', () => {
  test('one property at a time, with both muting events', async () => {
    const name = unique('Settings');
    await subscribe('hamlet', { subscriptions: [{ name }] });
    const id = await streamId(name);
    const l = await Listeners.open(server, ['hamlet']);
    assert.equal((await server.as('hamlet').patch(`/users/me/subscriptions/${id}`, { property: 'is_muted', value: true })).status, 200);
    const events = await l.take('hamlet', 'subscription');
    assert.deepEqual(events.map((e) => [e.property, e.value]), [['in_home_view', false], ['is_muted', true]]);
    assert.equal((await server.as('hamlet').patch(`/users/me/subscriptions/${id}`, { property: 'color', value: '#aabbcc' })).status, 200);
    assert.equal((await server.as('hamlet').patch(`/users/me/subscriptions/${id}`, { property: 'desktop_notifications', value: true })).status, 200);
    const subs = await server.as('hamlet').get('/users/me/subscriptions');
    const sub = subs.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    assert.equal(sub.is_muted, true);
    assert.equal(sub.in_home_view, false);
    assert.equal(sub.color, '#aabbcc');
    assert.equal(sub.desktop_notifications, true);
    assert.equal(sub.email_notifications, false, 'inherit is false without notification_settings_null');
    const withNull = await server.as('hamlet').post('/register', { fetch_event_types: ['subscription'], client_capabilities: { notification_settings_null: true } });
    assert.equal(withNull.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id).email_notifications, null);
    const errors: [Record<string, ParamValue>, string][] = [
      [{ property: 'color', value: 'red' }, 'color is not a valid hex color code'],
      [{ property: 'is_muted', value: 'yes' }, 'is_muted is not a boolean'],
      [{ property: 'volume', value: true }, 'Unknown subscription property: volume'],
    ];
    for (const [params, msg] of errors) {
      const res = await server.as('hamlet').patch(`/users/me/subscriptions/${id}`, params);
      assert.equal(res.body.msg, msg);
    }
    const notSub = await server.as('cordelia').patch(`/users/me/subscriptions/${id}`, { property: 'pin_to_top', value: true });
    assert.equal(notSub.body.msg, `Not subscribed to channel ID ${id}`);
    const bulk = await server.as('hamlet').post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: id, property: 'pin_to_top', value: true }, { stream_id: id, property: 'in_home_view', value: true }] });
    assert.equal(bulk.status, 200, bulk.text);
    const after = (await server.as('hamlet').get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    assert.equal(after.pin_to_top, true);
    assert.equal(after.is_muted, false);
  });

  test('register blocks: subscriptions, unsubscribed, never_subscribed, streams', async () => {
    const mine = unique('Mine');
    const left = unique('Left');
    const other = unique('Other');
    await subscribe('cordelia', { subscriptions: [{ name: mine }, { name: left }] });
    await server.as('cordelia').delete('/users/me/subscriptions', { subscriptions: [left] });
    await subscribe('hamlet', { subscriptions: [{ name: other }] });
    const reg = await server.as('cordelia').post('/register', { fetch_event_types: ['subscription', 'stream'], include_subscribers: true });
    const names = (list: { name: string }[]) => list.map((s) => s.name);
    assert.ok(names(reg.body.subscriptions).includes(mine));
    assert.ok(names(reg.body.unsubscribed).includes(left));
    assert.ok(names(reg.body.never_subscribed).includes(other));
    assert.ok(names(reg.body.streams).includes(other));
    assert.deepEqual(reg.body.subscriptions.find((s: { name: string }) => s.name === mine).subscribers, [server.users.cordelia.id]);
    const partial = await server.as('cordelia').post('/register', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    assert.ok(Array.isArray(partial.body.subscriptions[0].subscribers), 'small channels have complete lists');
    const none = await server.as('cordelia').post('/register', { fetch_event_types: ['subscription'] });
    assert.ok(!('subscribers' in none.body.subscriptions[0]));
  });

  test('a thousand principals in one request', async () => {
    const { loadConfig } = await import('../src/config.js');
    const { openApp } = await import('../src/server.js');
    const { findRealmBySubdomain } = await import('../src/store/realms.js');
    const { doCreateUser } = await import('../src/actions/users.js');
    const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
    const ids: number[] = [];
    try {
      const realm = (await findRealmBySubdomain(app.db, ''))!;
      for (let i = 0; i < 1000; i++) {
        ids.push((await doCreateUser(app, realm, { email: `many${i}@zulip.example.com`, fullName: `Many ${i}`, password: null, role: 400 })).id);
      }
    } finally {
      app.limiter.close();
      await database.close();
    }
    const name = unique('Crowd');
    const res = await subscribe('iago', { subscriptions: [{ name }], principals: ids });
    assert.equal(res.status, 200, res.text);
    assert.equal(Object.keys(res.body.subscribed).length, 1000);
    const members = await server.as('iago').get(`/streams/${await streamId(name)}/members`);
    assert.equal(members.body.subscribers.length, 1000);
  });
});

test('GET /users/me/{stream_id}/topics: newest first, only readable history', async () => {
  const name = unique('Topics');
  await subscribe('hamlet', { subscriptions: [{ name }], principals: [server.users.hamlet.id] });
  const id = await streamId(name, 'hamlet');
  for (const [topic, content] of [['alpha', 'a'], ['Beta', 'b'], ['alpha', 'c']]) {
    await server.as('hamlet').post('/messages', { type: 'stream', to: id, topic, content });
  }
  const res = await server.as('hamlet').get(`/users/me/${id}/topics`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.topics.map((t: { name: string }) => t.name), ['alpha', 'Beta']);
  assert.ok(res.body.topics[0].max_id > res.body.topics[1].max_id);
  assert.equal((await server.as('cordelia').get(`/users/me/${id}/topics`)).status, 200, 'public history is readable');
  const secret = unique('Hush');
  await subscribe('hamlet', { subscriptions: [{ name: secret }], invite_only: true });
  const sid = await streamId(secret, 'hamlet');
  const denied = await server.as('cordelia').get(`/users/me/${sid}/topics`);
  assert.equal(denied.body.msg, 'Invalid channel ID');
});
