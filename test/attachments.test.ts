// Who may read an uploaded file, as messages link to it, are edited and deleted; GET/DELETE /attachments and the
// `attachment` events, which reach the owner only.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { createChannel, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';
import { fetchFile, readable, uploaded } from './helpers/uploads.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const EVERYONE: (SeedName | null)[] = ['hamlet', 'cordelia', 'iago', 'shiva', 'polonius', 'lear', null];

// Which of EVERYONE (null: no credentials) may read the file.
async function readers(url: string): Promise<string[]> {
  const out: string[] = [];
  for (const who of EVERYONE) if (await readable(server, who, url)) out.push(who ?? 'anonymous');
  return out;
}

const link = (url: string, name = 'file') => `[${name}](${url})`;
const attachmentOf = async (who: SeedName, url: string) =>
  ((await server.as(who).get('/attachments')).body.attachments as Record<string, any>[]).find((a) => url.endsWith(a.path_id))!;

test('before any message links it, only the uploader reads a file; others see a missing file', async () => {
  const url = await uploaded(server, 'hamlet', 'draft.txt', 'draft');
  assert.deepEqual(await readers(url), ['hamlet']);
  const denied = await fetchFile(server, 'cordelia', url);
  const missing = await fetchFile(server, 'cordelia', url.replace(/draft\.txt$/, 'nothing.txt'));
  assert.deepEqual([denied.status, denied.body], [missing.status, missing.body]);
  assertError(denied, 404, 'BAD_REQUEST', 'This file does not exist or has been deleted.');
  assertError(await fetchFile(server, null, url, { authorization: 'Basic ' + Buffer.from('hamlet@zulip.example.com:wrong').toString('base64') }), 401, 'UNAUTHORIZED', 'Invalid API key');
});

test('a private-channel message shares the file with that channel’s readers only', async () => {
  const secret = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], { invite_only: true });
  const url = await uploaded(server, 'hamlet', 'plans.txt', 'plans');
  await sendToChannel(server, 'hamlet', secret, 'plans', `see ${link(url)}`);
  assert.deepEqual(await readers(url), ['hamlet', 'cordelia']);
});

test('a public-channel message shares it with members, not with unsubscribed guests', async () => {
  const open = await createChannel(server, 'hamlet', ['hamlet']);
  const url = await uploaded(server, 'hamlet', 'public.txt', 'public');
  await sendToChannel(server, 'hamlet', open, 'notes', link(url));
  assert.deepEqual(await readers(url), ['hamlet', 'cordelia', 'iago', 'shiva']);
});

test('a direct message shares it with its recipients, guests included', async () => {
  const url = await uploaded(server, 'hamlet', 'dm.txt', 'dm');
  await sendDm(server, 'hamlet', ['polonius'], `here: ${url}.`);
  assert.deepEqual(await readers(url), ['hamlet', 'polonius']);
});

test("only files the sender may read are claimed: another's unshared file stays private", async () => {
  const url = await uploaded(server, 'hamlet', 'mine.txt', 'mine');
  const open = await createChannel(server, 'cordelia', ['cordelia']);
  await sendToChannel(server, 'cordelia', open, 'stolen link', link(url));
  assert.deepEqual(await readers(url), ['hamlet']);
  assert.deepEqual((await attachmentOf('hamlet', url)).messages, []);
});

test('a reader may share a file further; the owner is told, nobody else', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia'], { event_types: ['attachment'] });
  const secret = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], { invite_only: true });
  const url = await uploaded(server, 'hamlet', 'reshared.txt', 'x');
  const first = await sendToChannel(server, 'hamlet', secret, 't', link(url));
  const open = await createChannel(server, 'cordelia', ['cordelia']);
  const second = await sendToChannel(server, 'cordelia', open, 't', link(url));
  assert.deepEqual(await readers(url), ['hamlet', 'cordelia', 'iago', 'shiva']);
  const events = await takeUntil(l, 'hamlet', 'attachment', (e) => e.attachment.messages.length === 2);
  assert.deepEqual(events.map((e) => [e.op, e.attachment.message_ids]), [['add', []], ['update', [first]], ['update', [first, second]]]);
  assert.deepEqual(await l.take('cordelia', 'attachment'), []);
});

test('deleting the message takes the access away again; the owner keeps the file', async () => {
  const secret = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], { invite_only: true });
  const url = await uploaded(server, 'hamlet', 'gone.txt', 'gone');
  const id = await sendToChannel(server, 'hamlet', secret, 't', link(url));
  assert.deepEqual(await readers(url), ['hamlet', 'cordelia']);
  const l = await Listeners.open(server, ['hamlet'], { event_types: ['attachment'] });
  assertSuccess(await server.as('hamlet').delete(`/messages/${id}`));
  assert.deepEqual(await readers(url), ['hamlet']);
  const [event] = await takeUntil(l, 'hamlet', 'attachment');
  assert.deepEqual([event.op, event.attachment.messages], ['update', []]);
});

test('editing follows the content: links removed are released and reported as detached, links added claimed', async () => {
  const secret = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], { invite_only: true });
  const a = await uploaded(server, 'hamlet', 'a.txt', 'a');
  const b = await uploaded(server, 'hamlet', 'b.txt', 'b');
  const id = await sendToChannel(server, 'hamlet', secret, 't', `${link(a)} ${link(b)}`);
  // b is also linked from another message, so dropping it here does not detach it.
  await sendToChannel(server, 'hamlet', secret, 't', link(b));
  const edit = assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { content: 'no more files' }));
  assert.deepEqual(edit.detached_uploads, [{ ...(await attachmentOf('hamlet', a)), messages: [], message_ids: [] }]);
  assert.equal(edit.detached_uploads[0].name, 'a.txt');
  assert.deepEqual([await readable(server, 'cordelia', a), await readable(server, 'cordelia', b)], [false, true]);
  const again = assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { content: `back: ${link(a)}` }));
  assert.deepEqual(again.detached_uploads, []);
  assert.equal(await readable(server, 'cordelia', a), true);
  // An edit that touches neither old nor new links changes nothing.
  assert.deepEqual(assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { topic: 'moved' })).detached_uploads, []);
});

test('spectators read files of web-public channels only while the organization admits them', async () => {
  const url = await uploaded(server, 'desdemona', 'spectators.txt', 'hello world');
  assertSuccess(await server.as('desdemona').patch('/realm', { enable_spectator_access: true }));
  try {
    const web = await createChannel(server, 'desdemona', ['desdemona'], { is_web_public: true });
    await sendToChannel(server, 'desdemona', web, 't', link(url));
    assert.equal(await readable(server, null, url), true);
    assert.equal(await readable(server, 'lear', url), false);
  } finally {
    assertSuccess(await server.as('desdemona').patch('/realm', { enable_spectator_access: false }));
  }
  assert.equal(await readable(server, null, url), false);
});

test('GET /attachments lists the caller’s files with their messages and the space in use', async () => {
  const url = await uploaded(server, 'shiva', 'listed.txt', '12345');
  const open = await createChannel(server, 'shiva', ['shiva']);
  const id = await sendToChannel(server, 'shiva', open, 't', link(url));
  const body = assertSuccess(await server.as('shiva').get('/attachments'));
  assertMatchesSchema('/attachments', 'get', body);
  assert.equal(body.attachments.length, 1);
  const [a] = body.attachments;
  assert.deepEqual(Object.keys(a).sort(), ['create_time', 'id', 'message_ids', 'messages', 'name', 'path_id', 'size']);
  assert.deepEqual([a.name, a.size, `/user_uploads/${a.path_id}`, a.message_ids], ['listed.txt', 5, url, [id]]);
  assert.equal(a.messages[0].id, id);
  assert.ok(Math.abs(a.create_time - Date.now()) < 60_000 && Math.abs(a.messages[0].date_sent - Date.now()) < 60_000);
  assert.ok(body.upload_space_used >= 5);
  assert.deepEqual(assertSuccess(await server.as('polonius').get('/attachments')).attachments, []);
});

test('DELETE /attachments/{id}: the owner only; the file is gone; the owner is told', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia'], { event_types: ['attachment'] });
  const url = await uploaded(server, 'hamlet', 'doomed.txt', 'doomed');
  const { id } = await attachmentOf('hamlet', url);
  const before = (await takeUntil(l, 'hamlet', 'attachment')).at(-1)!;
  assert.deepEqual([before.op, before.attachment.id], ['add', id]);

  assertError(await server.as('cordelia').delete(`/attachments/${id}`), 400, 'BAD_REQUEST', 'Invalid attachment');
  assertError(await server.as('hamlet').delete('/attachments/999999'), 400, 'BAD_REQUEST', 'Invalid attachment');
  assertError(await server.as('lear').delete(`/attachments/${id}`), 400, 'BAD_REQUEST', 'Invalid attachment');
  assertSuccess(await server.as('hamlet').delete(`/attachments/${id}`));
  assertError(await fetchFile(server, 'hamlet', url), 404, 'BAD_REQUEST', 'This file does not exist or has been deleted.');
  assert.equal(await attachmentOf('hamlet', url), undefined);
  const [removed] = await takeUntil(l, 'hamlet', 'attachment', (e) => e.op === 'remove');
  assert.deepEqual(removed, { type: 'attachment', op: 'remove', attachment: { id }, upload_space_used: before.upload_space_used - 6, id: removed.id });
  assert.deepEqual(await l.take('cordelia', 'attachment'), []);
  assertError(await server.as('hamlet').delete(`/attachments/${id}`), 400, 'BAD_REQUEST', 'Invalid attachment');
});
