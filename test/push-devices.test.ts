// Mobile devices and push notifications, as the mobile app registers them on every start (register_client_device,
// then mobile_push/register with its key and encrypted token), and the older token endpoints; forwarded to a push
// bouncer speaking the reference's protocol, here a fake one in the test process; off by default.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nacl from 'tweetnacl';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Listeners, eventually } from './helpers/events.js';
import { validateEvent } from './helpers/openapi-events.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { createChannel, sendDm, sendToChannel } from './helpers/messages.js';

interface Received { path: string; auth: string; type: string; body: any }
const received: Received[] = [];
const refuse = new Set<string>(); // endpoints the bouncer refuses
let bouncer: http.Server;
let server: TestServer;
let off: TestServer;
let denmark: number;

before(async () => {
  bouncer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const type = String(req.headers['content-type']);
      const body = type.startsWith('application/json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
      const path = req.url!.replace('/api/v1/remotes/', '');
      received.push({ path, auth: String(req.headers.authorization), type, body });
      res.setHeader('content-type', 'application/json');
      if (refuse.has(path)) {
        res.statusCode = 400;
        res.end(JSON.stringify({ result: 'error', msg: 'Invalid bouncer_public_key', code: 'INVALID_BOUNCER_PUBLIC_KEY' }));
        return;
      }
      const answers: Record<string, unknown> = {
        'push/e2ee/register': { device_id: 9000 + received.length },
        'push/e2ee/notify': { apple_successfully_sent_count: 0, android_successfully_sent_count: 1, delete_device_ids: [] },
        'push/notify': { total_android_devices: 1, total_apple_devices: 0, deleted_devices: { android_devices: [], apple_devices: [] } },
      };
      res.end(JSON.stringify({ result: 'success', msg: '', ...((answers[path] as object) ?? {}) }));
    });
  });
  await new Promise<void>((resolve) => bouncer.listen(0, '127.0.0.1', resolve));
  const port = (bouncer.address() as AddressInfo).port;
  server = await startTestServer({
    env: { PARLANCE_PUSH_BOUNCER_URL: `http://127.0.0.1:${port}`, PARLANCE_PUSH_BOUNCER_ORG_ID: 'org-uuid', PARLANCE_PUSH_BOUNCER_ORG_KEY: 'org-secret' },
  });
  off = await startTestServer({ env: { PARLANCE_LOG_LEVEL: 'info' } });
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
});
after(async () => {
  await server.close();
  await off.close();
  bouncer.close();
});

const BASIC = 'Basic ' + Buffer.from('org-uuid:org-secret').toString('base64');
const key = nacl.randomBytes(32);
const pushKey = Buffer.concat([Buffer.from([0x31]), Buffer.from(key)]).toString('base64');
const registration = { token_kind: 'fcm', token_id: 'hGsEWGmyyfI=', bouncer_public_key: 'bW0F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM=', encrypted_push_registration: Buffer.from('sealed box').toString('base64') };
const waitFor = (path: string, from = 0) => eventually(async () => received.slice(from).find((r) => r.path === path));

test('the app registers its device and push key: stored, forwarded to the bouncer, told back in device events', async () => {
  const l = await Listeners.open(server, ['hamlet'], { event_types: JSON.stringify(['device']) });
  const { device_id: deviceId } = assertSuccess(await server.as('hamlet').post('/register_client_device', {}));
  assert.ok(Number.isInteger(deviceId));
  const [added] = await l.waitFor('hamlet', 'device');
  assert.deepEqual([added.op, added.device_id], ['add', deviceId]);
  assert.deepEqual(validateEvent(added), []);
  let reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['device']) }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  assert.deepEqual(reg.devices[deviceId], { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null });

  const from = received.length;
  assertSuccess(await server.as('hamlet').post('/mobile_push/register', { device_id: deviceId, push_key_id: 7, push_key: pushKey, ...registration }));
  const forwarded = await waitFor('push/e2ee/register', from);
  assert.equal(forwarded.auth, BASIC);
  assert.deepEqual(Object.keys(forwarded.body).sort(), ['bouncer_public_key', 'encrypted_push_registration', 'realm_uuid', 'token_id']);
  assert.equal(forwarded.body.encrypted_push_registration, registration.encrypted_push_registration);
  const updates = await eventually(async () => {
    const got = await l.take('hamlet', 'device');
    return got.length ? got : undefined;
  });
  const all = [...updates, ...(await eventually(async () => {
    const more = [...updates, ...(await l.take('hamlet', 'device'))];
    return more.some((e) => e.push_token_id) ? more : undefined;
  }))];
  for (const e of all) assert.deepEqual(validateEvent(e), []);
  assert.ok(all.some((e) => e.push_key_id === 7 && e.pending_push_token_id === registration.token_id));
  assert.ok(all.some((e) => e.push_token_id === registration.token_id && e.pending_push_token_id === null && Number.isInteger(e.push_token_last_updated_timestamp)));
  reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['device']) }));
  assert.deepEqual({ ...reg.devices[deviceId], push_token_last_updated_timestamp: 0 }, {
    push_key_id: 7, push_token_id: registration.token_id, pending_push_token_id: null, push_token_last_updated_timestamp: 0, push_registration_error_code: null,
  });

  // A direct message reaches the device, encrypted with its key, in the form the app decrypts and reads.
  const before = received.length;
  const dm = await sendDm(server, 'cordelia', ['hamlet'], 'Are you there, my lord?');
  const notify = await waitFor('push/e2ee/notify', before);
  assert.equal(notify.type, 'application/json');
  const [bouncerId, encrypted] = Object.entries(notify.body.device_id_to_encrypted_data as Record<string, string>)[0];
  assert.ok(Number(bouncerId) >= 9000);
  const bytes = Buffer.from(encrypted, 'base64');
  const opened = nacl.secretbox.open(bytes.subarray(24), bytes.subarray(0, 24), key);
  assert.ok(opened, 'decrypts with the device key');
  const data = JSON.parse(Buffer.from(opened).toString('utf8'));
  assert.deepEqual(
    { type: data.type, user_id: data.user_id, sender_id: data.sender_id, message_id: data.message_id, content: data.content, recipient_user_ids: data.recipient_user_ids, push_key_id: data.push_key_id },
    { type: 'message', user_id: server.users.hamlet.id, sender_id: server.users.cordelia.id, message_id: dm, content: 'Are you there, my lord?', recipient_user_ids: [server.users.hamlet.id, server.users.cordelia.id].sort((a, b) => a - b), push_key_id: 7 },
  );
  assert.match(data.realm_url, /^http:\/\//);
  assert.match(data.sender_avatar_url, /^http:\/\/.*\/user_avatars\//);
  // Messages that arrive read (one's own, from a muted user) and channel messages without a mention notify nobody.
  const quiet = received.length;
  await sendToChannel(server, 'cordelia', denmark, 'quiet', 'no mention');
  await sendDm(server, 'hamlet', ['cordelia'], 'my own');
  const mention = await sendToChannel(server, 'cordelia', denmark, 'loud', '@**King Hamlet** listen');
  const loud = await waitFor('push/e2ee/notify', quiet);
  const b2 = Buffer.from(Object.values(loud.body.device_id_to_encrypted_data as Record<string, string>)[0], 'base64');
  const second = JSON.parse(Buffer.from(nacl.secretbox.open(b2.subarray(24), b2.subarray(0, 24), key)!).toString('utf8'));
  assert.deepEqual([second.message_id, second.channel_id, second.topic], [mention, denmark, 'loud']);
  assert.equal(received.slice(quiet).filter((r) => r.path === 'push/e2ee/notify').length, 1);

  // Logging out removes the device.
  assertSuccess(await server.as('hamlet').post('/remove_client_device', { device_id: deviceId }));
  assertError(await server.as('hamlet').post('/remove_client_device', { device_id: deviceId }), 400, 'BAD_REQUEST', 'Invalid device ID');
});

test('a registration the bouncer refuses is told back as push_registration_error_code', async () => {
  const { device_id: deviceId } = assertSuccess(await server.as('cordelia').post('/register_client_device'));
  refuse.add('push/e2ee/register');
  try {
    assertSuccess(await server.as('cordelia').post('/mobile_push/register', { device_id: deviceId, push_key_id: 1, push_key: pushKey, ...registration }));
    const device = await eventually(async () => {
      const reg = assertSuccess(await server.as('cordelia').post('/register', { fetch_event_types: JSON.stringify(['device']) }));
      return reg.devices[deviceId].push_registration_error_code ? reg.devices[deviceId] : undefined;
    });
    assert.deepEqual([device.push_registration_error_code, device.pending_push_token_id, device.push_token_id], ['INVALID_BOUNCER_PUBLIC_KEY', null, null]);
  } finally {
    refuse.delete('push/e2ee/register');
  }
});

test('errors of the device endpoints', async () => {
  const { device_id: mine } = assertSuccess(await server.as('iago').post('/register_client_device'));
  const { device_id: theirs } = assertSuccess(await server.as('shiva').post('/register_client_device'));
  const register = (params: Record<string, unknown>) => server.as('iago').post('/mobile_push/register', { device_id: mine, ...params });
  assertError(await server.as('iago').post('/mobile_push/register', { device_id: theirs, push_key_id: 1, push_key: pushKey }), 400, 'BAD_REQUEST', 'Invalid device ID');
  assertError(await server.as('iago').post('/remove_client_device', { device_id: theirs }), 400, 'BAD_REQUEST', 'Invalid device ID');
  assertError(await register({}), 400, 'BAD_REQUEST', 'Missing push key or token fields.');
  assertError(await register({ push_key_id: 1 }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'push_key' argument");
  assertError(await register({ push_key_id: 1, push_key: Buffer.from(key).toString('base64') }), 400, 'BAD_REQUEST', 'Invalid push_key');
  assertError(await register({ token_kind: 'fcm', token_id: 'hGsEWGmyyfI=' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'bouncer_public_key' argument");
  assertError(await register({ ...registration, token_kind: 'webpush' }), 400, 'BAD_REQUEST', 'Invalid token_kind: "webpush"');
  assertError(await register({ ...registration, token_id: 'not base64!' }), 400, 'BAD_REQUEST', 'Invalid token_id');
  assertError(await server.as('iago').post('/remove_client_device', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'device_id' argument");
});

test('the older token endpoints: stored, told to the bouncer, used for notifications, removed', async () => {
  const fcm = 'fcm-token-' + 'x'.repeat(100);
  let from = received.length;
  assertSuccess(await server.as('cordelia').post('/users/me/android_gcm_reg_id', { token: fcm }));
  const registered = await waitFor('push/register', from);
  assert.equal(registered.auth, BASIC);
  assert.deepEqual([registered.body.token, registered.body.token_kind, registered.body.user_id], [fcm, '2', String(server.users.cordelia.id)]);
  assert.ok(registered.body.realm_uuid && registered.body.user_uuid && registered.body.server_uuid === 'org-uuid');
  from = received.length;
  const dm = await sendDm(server, 'hamlet', ['cordelia'], 'A legacy notification');
  const notify = await waitFor('push/notify', from);
  assert.deepEqual(notify.body.android_devices, [fcm]);
  assert.deepEqual([notify.body.gcm_payload.event, notify.body.gcm_payload.zulip_message_id, notify.body.gcm_payload.content], ['message', dm, 'A legacy notification']);
  assert.equal(notify.body.apns_payload.alert.body, 'A legacy notification');
  from = received.length;
  assertSuccess(await server.as('cordelia').delete('/users/me/android_gcm_reg_id', { token: fcm }));
  assert.equal((await waitFor('push/unregister', from)).body.token, fcm);
  assertError(await server.as('cordelia').delete('/users/me/android_gcm_reg_id', { token: fcm }), 400, 'BAD_REQUEST', 'Token does not exist');

  const apns = 'c0ffee' + '0'.repeat(58);
  assertSuccess(await server.as('cordelia').post('/users/me/apns_device_token', { token: apns, appid: 'org.zulip.Zulip' }));
  assertSuccess(await server.as('cordelia').delete('/users/me/apns_device_token', { token: apns }));
  assertError(await server.as('cordelia').post('/users/me/apns_device_token', { token: 'zz', appid: 'org.zulip.Zulip' }), 400, 'BAD_REQUEST', 'Invalid APNS token');
  assertError(await server.as('cordelia').post('/users/me/apns_device_token', { token: apns, appid: 'bad id!' }), 400, 'BAD_REQUEST', 'Invalid app ID');
  assertError(await server.as('cordelia').post('/users/me/apns_device_token', { token: apns }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument");
  assertError(await server.as('cordelia').post('/users/me/android_gcm_reg_id', { token: '' }), 400, 'BAD_REQUEST', 'Empty or invalid length token');
});

test('without a bouncer (the default): registrations are kept, nothing is sent, and the log says so', async () => {
  const settings = assertSuccess(await off.anon().get('/server_settings'));
  assert.equal(settings.push_notifications_enabled, false);
  assert.equal(assertSuccess(await server.anon().get('/server_settings')).push_notifications_enabled, true);
  const { device_id: deviceId } = assertSuccess(await off.as('hamlet').post('/register_client_device'));
  assertSuccess(await off.as('hamlet').post('/mobile_push/register', { device_id: deviceId, push_key_id: 3, push_key: pushKey, ...registration }));
  const reg = assertSuccess(await off.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['device', 'realm']) }));
  assert.deepEqual([reg.devices[deviceId].pending_push_token_id, reg.devices[deviceId].push_token_id], [registration.token_id, null]);
  assert.equal(reg.realm_push_notifications_enabled, false);
  await sendDm(off, 'cordelia', ['hamlet'], 'unnotified');
  await eventually(async () => (/PARLANCE_PUSH_BOUNCER_URL/.test(off.stdout) ? true : undefined));
  assert.match(off.stdout, /mobile push notifications are off/);
});
