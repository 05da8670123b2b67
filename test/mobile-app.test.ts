// The official mobile app's start-up and screens, request by request as zulip-flutter (lib/api/route/, lib/model/)
// makes them: what it sends (raw strings, JSON-encoded values) and what it requires of every reply and event.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import nacl from 'tweetnacl';
import sharp from 'sharp';
import { PASSWORD, startTestServer, type TestServer } from './helpers/server.js';
import { MobileApp, Raw } from './helpers/mobile-app.js';
import { assertSuccess } from './helpers/assertions.js';
import { appReplyErrors } from './helpers/mobile-app-model.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { multipart, postMultipart } from './helpers/uploads.js';
import { createChannel, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago'], {}, 'Denmark');
  await sendToChannel(server, 'cordelia', denmark, 'castle', 'Who is there? @**King Hamlet**');
  const moderation = await createChannel(server, 'iago', ['iago'], { invite_only: true }, 'Moderation');
  assert.equal((await server.as('iago').patch('/realm', { moderation_request_channel_id: moderation })).status, 200);
});
after(() => server.close());

// lib/api/route/events.dart registerQueue.
const REGISTER = {
  idle_queue_timeout: 'mobile', apply_markdown: true, client_gravatar: false, slim_presence: true,
  client_capabilities: {
    notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
    user_settings_object: true, include_deactivated_groups: true, empty_topic_name: true, individual_emoji_changes: true,
  },
};
const channel = (id: number) => ({ operator: 'channel', operand: id });
const topic = (name: string) => ({ operator: 'topic', operand: name });

test('log in, start up, every screen, log out', async () => {
  const app = new MobileApp(server);
  const hamlet = server.users.hamlet;

  // Logging in: the server's settings, then the password exchanged for an API key.
  const settings = await app.get('server_settings', null, { app: 'GET /server_settings', ref: '/server_settings' });
  assert.ok(settings.zulip_feature_level >= 468);
  const key = await app.post('fetch_api_key', { username: new Raw(hamlet.email), password: new Raw(PASSWORD) }, { app: 'POST /fetch_api_key', ref: '/fetch_api_key' });
  [app.email, app.apiKey] = [key.email, key.api_key];
  assert.equal(key.user_id, hamlet.id);

  // Start-up: the whole state, the emoji names, the device and its push registration, presence, the event queue.
  const snapshot = await app.post('register', REGISTER, { app: 'POST /register' });
  assert.deepEqual(validateRegisterResponse(snapshot), []);
  assert.equal(snapshot.idle_queue_timeout_secs, 12 * 3600);
  app.queueId = snapshot.queue_id;
  app.lastEventId = snapshot.last_event_id;
  const emoji = await fetch(snapshot.server_emoji_data_url);
  assert.equal(emoji.status, 200);
  assert.deepEqual(appReplyErrors('server_emoji_data_url', await emoji.json()), []);
  const { device_id: deviceId } = await app.post('register_client_device', {}, { app: 'POST /register_client_device' });
  const pushKey = Buffer.concat([Buffer.from([0x31]), Buffer.from(nacl.randomBytes(32))]).toString('base64');
  await app.post('mobile_push/register', {
    device_id: deviceId, push_key_id: 1, push_key: new Raw(pushKey), token_kind: new Raw('fcm'), token_id: new Raw('hGsEWGmyyfI='),
    bouncer_public_key: new Raw('mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM='), encrypted_push_registration: new Raw(Buffer.from('sealed').toString('base64')),
  });
  const presence = await app.post('users/me/presence', { ping_only: false, status: new Raw('active'), new_user_input: true, slim_presence: true }, { app: 'POST /users/me/presence' });
  assert.ok(presence.presences && presence.presence_last_update_id !== undefined);
  await app.poll();

  // The message lists: combined feed, a channel, a topic, direct messages, mentions, starred, a search, and a
  // conversation by message (`with`), each as the app asks (anchor raw, allow_empty_topic_name).
  const list = async (narrow: unknown[], anchor = 'newest') => {
    const body = await app.get('messages', { narrow, anchor: new Raw(anchor), num_before: 100, num_after: 100, client_gravatar: false, apply_markdown: true, allow_empty_topic_name: true }, { app: 'GET /messages' });
    assert.deepEqual(validateResponse('GET /messages', body), []);
    return body.messages as { id: number }[];
  };
  const feed = await list([], 'first_unread');
  assert.ok(feed.length > 0);
  const inTopic = await list([channel(denmark), topic('castle')]);
  assert.ok((await list([channel(denmark)])).length >= inTopic.length);
  await list([{ operator: 'dm', operand: [server.users.cordelia.id] }]);
  assert.ok((await list([{ operator: 'is', operand: 'mentioned' }])).length > 0);
  await list([{ operator: 'is', operand: 'starred' }]);
  await list([{ operator: 'search', operand: 'there' }]);
  assert.deepEqual((await list([channel(denmark), topic('elsewhere'), { operator: 'with', operand: inTopic[0].id }])).map((m) => m.id), inTopic.map((m) => m.id));
  await app.get(`users/me/${denmark}/topics`, { allow_empty_topic_name: true }, { app: 'GET /users/me/{id}/topics' });
  await app.get(`messages/${inTopic[0].id}`, { apply_markdown: true, allow_empty_topic_name: true }, { app: 'GET /messages/{id}' });

  // Composing: typing, sending with a local id (echoed back in the event), a direct message.
  await app.post('typing', { op: new Raw('start'), type: new Raw('channel'), stream_id: denmark, topic: new Raw('castle') });
  const sent = await app.post('messages', {
    type: new Raw('channel'), to: denmark, topic: new Raw('castle'), content: new Raw('I am here, **Horatio**'), queue_id: new Raw(app.queueId),
    local_id: new Raw('1234'), read_by_sender: true,
  }, { app: 'POST /messages', ref: '/messages' });
  await app.post('typing', { op: new Raw('stop'), type: new Raw('channel'), stream_id: denmark, topic: new Raw('castle') });
  await app.post('messages', { type: new Raw('direct'), to: [server.users.cordelia.id], content: new Raw('A word, lady.'), read_by_sender: true }, { app: 'POST /messages' });
  await app.post('typing', { op: new Raw('start'), type: new Raw('direct'), to: [server.users.cordelia.id] });
  const mine = (await app.poll()).find((e) => e.type === 'message' && e.message.id === sent.id);
  assert.equal(mine?.local_message_id, '1234');

  // An upload, and the temporary URL the app opens it with.
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer();
  const uploaded = await postMultipart(server, 'hamlet', '/api/v1/user_uploads', await multipart([{ name: 'photo.png', data: png, field: 'file', type: 'image/png' }]));
  assert.deepEqual(appReplyErrors('POST /user_uploads', uploaded.body), []);
  await app.get(uploaded.body.uri.replace(/^\/user_uploads\//, 'user_uploads/'), {}, { app: 'GET /user_uploads/{path}' });

  // The message action sheet: reactions, starring, editing (with the content's hash), read receipts, reporting,
  // marking unread and read, deleting.
  const first = inTopic[0].id;
  const reaction = { emoji_name: new Raw('thumbs_up'), emoji_code: new Raw('1f44d'), reaction_type: new Raw('unicode_emoji') };
  await app.post(`messages/${first}/reactions`, reaction);
  await app.delete(`messages/${first}/reactions`, reaction);
  await app.post('messages/flags', { messages: [first], op: new Raw('add'), flag: new Raw('starred') }, { app: 'POST /messages/flags', ref: '/messages/flags' });
  const raw = (await app.get(`messages/${sent.id}`, { apply_markdown: false, allow_empty_topic_name: true }, { app: 'GET /messages/{id}' })).message.content;
  await app.patch(`messages/${sent.id}`, { content: new Raw('I am here, **Horatio**!'), prev_content_sha256: new Raw(crypto.createHash('sha256').update(raw).digest('hex')) });
  await app.get(`messages/${first}/read_receipts`, null, { app: 'GET /messages/{id}/read_receipts', ref: '/messages/{message_id}/read_receipts' });
  await app.post(`messages/${first}/report`, { report_type: new Raw('spam'), description: new Raw('not really') });
  await app.post('messages/flags/narrow', { anchor: new Raw('oldest'), include_anchor: true, num_before: 0, num_after: 1000, narrow: [channel(denmark)], op: new Raw('remove'), flag: new Raw('read') }, { app: 'POST /messages/flags/narrow' });
  await app.post('messages/flags', { messages: [first], op: new Raw('add'), flag: new Raw('read') }, { app: 'POST /messages/flags' });
  const doomed = await app.post('messages', { type: new Raw('channel'), to: denmark, topic: new Raw('castle'), content: new Raw('delete me') }, { app: 'POST /messages' });
  await app.delete(`messages/${doomed.id}`, {});

  // A poll: the app renders it from the message's submessages and votes.
  const poll = await app.post('messages', { type: new Raw('channel'), to: denmark, topic: new Raw('votes'), content: new Raw('/poll To be?\nYes\nNo') }, { app: 'POST /messages' });
  await app.post('submessage', { message_id: poll.id, msg_type: new Raw('widget'), content: { type: 'vote', key: 'canned,0', vote: 1 } });
  const [withPoll] = (await list([channel(denmark), topic('votes')]));
  assert.equal((withPoll as any).submessages.length, 2);

  // Channels: subscribing, the channel's settings, unsubscribing, muting a topic.
  const other = await createChannel(server, 'iago', ['iago'], {}, 'Norway');
  await app.post('users/me/subscriptions', { subscriptions: [{ name: 'Norway' }] });
  await app.post('users/me/subscriptions/properties', { subscription_data: [{ stream_id: other, property: 'is_muted', value: true }] });
  await app.delete('users/me/subscriptions', { subscriptions: ['Norway'] });
  await app.post('user_topics', { stream_id: denmark, topic: new Raw('votes'), visibility_policy: 1 });

  // The profile and settings screens: settings, status, a saved snippet; the avatar images the app loads.
  await app.patch('settings', { twenty_four_hour_time: true, emojiset: new Raw('google'), presence_enabled: true });
  await app.post('users/me/status', { status_text: new Raw('Thinking'), emoji_name: new Raw('thinking'), emoji_code: new Raw('1f914'), reaction_type: new Raw('unicode_emoji') });
  await app.post('saved_snippets', { title: new Raw('Greeting'), content: new Raw('Hail!') }, { app: 'POST /saved_snippets' });
  const someone = snapshot.realm_users.find((u: { user_id: number }) => u.user_id === server.users.cordelia.id);
  assert.ok(!('avatar_url' in someone), 'a default avatar is left out, as the app asked');
  for (const path of [`/avatar/${someone.user_id}`, `/avatar/${someone.user_id}/medium`]) {
    const res = await fetch(new URL(path, server.url), { headers: { authorization: 'Basic ' + Buffer.from(`${app.email}:${app.apiKey}`).toString('base64') } });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'image/png');
  }
  assert.equal((await fetch(new URL(snapshot.realm_icon_url, server.url))).status, 200);
  // Muting someone on another device: the app hears of it (it hides their messages itself).
  assertSuccess(await server.as('hamlet').post(`/users/me/muted_users/${server.users.polonius.id}`));

  // Everything the queue received meanwhile parses, and logging out removes the device.
  await app.poll();
  for (const type of ['message', 'reaction', 'update_message', 'update_message_flags', 'delete_message', 'submessage', 'subscription', 'user_topic', 'user_settings', 'user_status', 'saved_snippets', 'device', 'typing', 'muted_users']) {
    assert.ok(app.events.some((e) => e.type === type), `the app heard ${type}`);
  }
  await app.post('remove_client_device', { device_id: deviceId });
  const [removed] = await app.poll();
  assert.deepEqual([removed.type, removed.op, removed.device_id], ['device', 'remove', deviceId]);
});
