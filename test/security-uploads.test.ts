// How much one organization and one member may store: the default organization quota, and the per-user limit
// on upload volume that bounds churn (upload, delete, upload again) the quota alone would allow.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { multipart, postMultipart, upload } from './helpers/uploads.js';
import { loadConfig, realmUploadQuotaMib } from '../src/config.js';

const MIB = 1024 * 1024;
const RATE_LIMITED = 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers';

let server: TestServer;
before(async () => {
  // No quota configured: the default applies. 3 MiB of uploads per user and hour.
  server = await startTestServer({ env: { PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '2', PARLANCE_UPLOAD_LIMIT_MIB_PER_HOUR: '3' } });
});
after(() => server.close());

test('an organization has an upload quota unless the installation turns it off', async () => {
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
  assert.equal(reg.realm_upload_quota_mib, 5120);
  assert.equal(realmUploadQuotaMib(loadConfig({}, {})), 5120);
  assert.equal(realmUploadQuotaMib(loadConfig({}, { PARLANCE_REALM_UPLOAD_QUOTA_MIB: '0' })), null);
  assert.equal(realmUploadQuotaMib(loadConfig({}, { PARLANCE_REALM_UPLOAD_QUOTA_MIB: '50' })), 50);
});

test('each user may upload only so many bytes an hour, counted when an upload starts', async () => {
  for (let i = 0; i < 3; i++) assert.equal((await upload(server, 'hamlet', [{ name: `m${i}.bin`, data: Buffer.alloc(MIB) }])).status, 200);
  const refused = assertError(await upload(server, 'hamlet', [{ name: 'more.bin', data: Buffer.alloc(MIB) }]), 429, 'RATE_LIMIT_HIT', RATE_LIMITED);
  assert.ok(refused['retry-after'] > 0 && refused['retry-after'] <= 3600, String(refused['retry-after']));

  // Resumable uploads count their declared length; avatars and custom emoji count too.
  const tus = await send('POST', new URL('/api/v1/tus', server.url), { 'tus-resumable': '1.0.0', 'upload-length': String(MIB), ...server.as('hamlet').headers() });
  assertError(tus, 429, 'RATE_LIMIT_HIT', RATE_LIMITED);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(MIB)]);
  assertError(await postMultipart(server, 'hamlet', '/api/v1/users/me/avatar', await multipart([{ name: 'a.png', data: png, type: 'image/png' }])), 429, 'RATE_LIMIT_HIT', RATE_LIMITED);
  assertError(await postMultipart(server, 'hamlet', '/api/v1/realm/emoji/big_one', await multipart([{ name: 'e.png', data: png, type: 'image/png' }])), 429, 'RATE_LIMIT_HIT', RATE_LIMITED);

  // The limit is per user; a refused request takes nothing from the allowance.
  const started = await send('POST', new URL('/api/v1/tus', server.url), { 'tus-resumable': '1.0.0', 'upload-length': String(2 * MIB), ...server.as('cordelia').headers() });
  assert.equal(started.status, 201, started.text);
  assert.equal((await upload(server, 'cordelia', [{ name: 'fits.bin', data: Buffer.alloc(MIB) }])).status, 200);
  assertError(await upload(server, 'cordelia', [{ name: 'over.bin', data: Buffer.alloc(1) }]), 429, 'RATE_LIMIT_HIT', RATE_LIMITED);
});
