// Every kind of event the mobile app parses (lib/api/model/events.dart: 46 classes by type and op), produced on a
// queue registered as the app registers it, each checked against the reference server's event schema and against
// the fields the app requires. A second queue without the app's capabilities receives the older forms (the full
// realm_emoji update, user_group remove).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { validateEvent } from './helpers/openapi-events.js';
import { appEventErrors, appEventKey, EVENTS } from './helpers/mobile-app-model.js';
import { multipart, postMultipart } from './helpers/uploads.js';
import { unique } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_HEARTBEAT_SECONDS: '2' } });
});
after(() => server.close());

// The app's registration (lib/api/route/events.dart registerQueue), every value JSON-encoded.
export const APP_CAPABILITIES = {
  notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
  user_settings_object: true, include_deactivated_groups: true, empty_topic_name: true, individual_emoji_changes: true,
};
const APP_REGISTER = { idle_queue_timeout: '"mobile"', apply_markdown: 'true', client_gravatar: 'false', slim_presence: 'true', client_capabilities: JSON.stringify(APP_CAPABILITIES) };

// Not produced: realm_user/remove, which the reference sends to a guest who loses access to a user (this server
// does not re-evaluate a restricted guest's access when subscriptions change).
const NOT_PRODUCED = new Set(['realm_user/remove']);

test('each event the app parses, in the reference shape and with the fields the app requires', async () => {
  const iago = server.as('iago');
  const ok = async (p: Promise<{ status: number; text: string; body: any }>) => {
    const r = await p;
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const app = assertSuccess(await iago.post('/register', { ...APP_REGISTER, fetch_event_types: '[]' }));
  const legacy = assertSuccess(await iago.post('/register', { fetch_event_types: '[]' }));
  const queues = [{ id: app.queue_id as string, last: -1, events: [] as any[] }, { id: legacy.queue_id as string, last: -1, events: [] as any[] }];
  const drain = async () => {
    for (const q of queues) {
      const res = await ok(iago.get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true }));
      if (res.events.length) q.last = res.events.at(-1).id;
      q.events.push(...res.events);
    }
  };

  // Custom emoji.
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#08f' } }).png().toBuffer();
  const emoji = unique('party').replace(/\W/g, '_');
  const upload = await postMultipart(server, 'iago', `/api/v1/realm/emoji/${emoji}`, await multipart([{ name: 'e.png', data: png }]));
  assert.equal(upload.status, 200, upload.text);
  await ok(iago.delete(`/realm/emoji/${emoji}`));
  // The user's own state.
  await ok(iago.post('/users/me/alert_words', { alert_words: JSON.stringify(['thane']) }));
  await ok(iago.patch('/settings', { display_emoji_reaction_users: 'false' }));
  const { device_id: device } = await ok(iago.post('/register_client_device'));
  await ok(iago.post('/mobile_push/register', { device_id: device, push_key_id: 1, push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64') }));
  await ok(iago.post('/remove_client_device', { device_id: device }));
  await ok(iago.post('/realm/profile_fields', { name: unique('Sword'), field_type: 1, hint: 'which one' }));
  // Groups.
  const g1 = (await ok(iago.post('/user_groups/create', { name: unique('Crew'), description: 'a crew', members: JSON.stringify([server.users.hamlet.id]) }))).group_id;
  const g2 = (await ok(iago.post('/user_groups/create', { name: unique('Watch'), description: 'the watch', members: JSON.stringify([server.users.cordelia.id]) }))).group_id;
  await ok(iago.patch(`/user_groups/${g1}`, { name: unique('Renamed crew') }));
  await ok(iago.post(`/user_groups/${g1}/members`, { add: JSON.stringify([server.users.cordelia.id]) }));
  await ok(iago.post(`/user_groups/${g1}/members`, { delete: JSON.stringify([server.users.cordelia.id]) }));
  await ok(iago.post(`/user_groups/${g1}/subgroups`, { add: JSON.stringify([g2]) }));
  await ok(iago.post(`/user_groups/${g1}/subgroups`, { delete: JSON.stringify([g2]) }));
  await ok(iago.post(`/user_groups/${g2}/deactivate`));
  // Users.
  const created = await ok(iago.post('/users', { email: `${unique('yorick').replace(/\W/g, '')}@zulip.example.com`, password: 'alas poor yorick', full_name: 'Yorick' }));
  await ok(iago.patch(`/users/${created.user_id}`, { full_name: 'Yorick the Jester' }));
  // Snippets and folders.
  const snippet = (await ok(iago.post('/saved_snippets', { title: 'Greeting', content: 'Hail!' }))).saved_snippet_id;
  await ok(iago.patch(`/saved_snippets/${snippet}`, { title: 'Greeting', content: 'All hail!' }));
  await ok(iago.delete(`/saved_snippets/${snippet}`));
  const folder = (await ok(iago.post('/channel_folders/create', { name: unique('Castle'), description: '' }))).channel_folder_id;
  await ok(iago.patch(`/channel_folders/${folder}`, { description: 'the castle' }));
  const folders = (await ok(iago.get('/channel_folders', { include_archived: 'true' }))).channel_folders.map((f: { id: number }) => f.id);
  await ok(iago.patch('/channel_folders', { order: JSON.stringify([...folders].reverse()) }));
  // Channels and subscriptions.
  const name = unique('Elsinore');
  await ok(iago.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]) }));
  const channel = (await ok(iago.get('/get_stream_id', { stream: name }))).stream_id;
  await ok(iago.patch(`/streams/${channel}`, { description: 'A castle' }));
  await ok(iago.post('/users/me/subscriptions/properties', { subscription_data: JSON.stringify([{ stream_id: channel, property: 'pin_to_top', value: true }]) }));
  await ok(iago.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify([server.users.hamlet.id]) }));
  await ok(iago.post('/user_topics', { stream_id: channel, topic: 'ghosts', visibility_policy: 3 }));
  await ok(iago.post('/users/me/status', { status_text: 'On the ramparts' }));
  await ok(iago.post(`/users/me/muted_users/${server.users.shiva.id}`));
  // Messages.
  const hamlet = server.as('hamlet');
  const poll = (await ok(hamlet.post('/messages', { type: 'stream', to: channel, topic: 'ghosts', content: '/poll Is it a ghost?\nYes\nNo' }))).id;
  await ok(iago.post('/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));
  await ok(iago.post(`/messages/${poll}/reactions`, { emoji_name: 'ghost' }));
  const mine = (await ok(iago.post('/messages', { type: 'stream', to: channel, topic: 'ghosts', content: 'I saw it' }))).id;
  await ok(iago.patch(`/messages/${mine}`, { content: 'I saw it too' }));
  await ok(iago.post('/messages/flags', { messages: JSON.stringify([poll]), op: 'add', flag: 'starred' }));
  await ok(iago.post('/messages/flags', { messages: JSON.stringify([mine]), op: 'remove', flag: 'read' }));
  await ok(iago.delete(`/messages/${mine}`));
  await ok(hamlet.post('/typing', { op: 'start', to: JSON.stringify([server.users.iago.id]) }));
  await ok(hamlet.post('/users/me/presence', { status: 'active', slim_presence: 'true' }));
  await ok(iago.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([name]), principals: JSON.stringify([server.users.hamlet.id]) }));
  await ok(iago.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([name]) }));
  await ok(iago.delete(`/streams/${channel}`));
  await drain();
  // A heartbeat ends a poll that waited with nothing to tell.
  const parked = await ok(iago.get('/events', { queue_id: queues[0].id, last_event_id: queues[0].last }));
  queues[0].events.push(...parked.events);

  const failures: string[] = [];
  const seen = new Set<string>();
  const onAppQueue = new Set(queues[0].events.map(appEventKey));
  for (const [i, q] of queues.entries()) {
    for (const e of q.events) {
      const key = appEventKey(e);
      if (key) seen.add(key);
      for (const line of validateEvent(e)) failures.push(`${i ? 'legacy' : 'app'} queue, reference schema: ${line}`);
      // The legacy queue's forms matter to the app only for the kinds that reach the app in no other form.
      if (i && onAppQueue.has(key)) continue;
      for (const line of appEventErrors(e)) failures.push(`${i ? 'legacy' : 'app'} queue, the app: ${line}`);
    }
  }
  assert.deepEqual(failures, []);
  const missing = Object.keys(EVENTS).filter((k) => !seen.has(k) && !NOT_PRODUCED.has(k));
  assert.deepEqual(missing, [], `kinds of event not produced: ${missing.join(', ')}`);
  assert.equal(Object.keys(EVENTS).length, 46);
  // The app, which sends individual_emoji_changes, gets the reference's op for a deactivated emoji.
  assert.ok(queues[0].events.some((e) => e.type === 'realm_emoji' && e.op === 'update_one' && e.data.deactivated === true));
  assert.ok(!queues[0].events.some((e) => e.type === 'realm_emoji' && e.op === 'update'));
});
