// Reminders: POST/GET/DELETE /reminders, the reminders events and register block, and delivery by the
// Notification Bot at the chosen time, exactly once, also across a restart.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { eventually, Listeners } from './helpers/events.js';
import type { ParamValue } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { createChannel } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
let mousetrap: number; // hamlet's message in Denmark
let letter: number; // cordelia's direct message to hamlet
let secret: number; // iago's message in a private channel hamlet is not in
before(async () => {
  server = await startTestServer({ env: { PARLANCE_SCHEDULED_POLL_MS: '200' } });
  denmark = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], {}, 'Denmark');
  const verona = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  const send = async (as: 'hamlet' | 'cordelia' | 'iago', params: Record<string, ParamValue>) =>
    assertSuccess(await server.as(as).post('/messages', params)).id as number;
  mousetrap = await send('hamlet', { type: 'stream', to: denmark, topic: 'the play', content: "The play's the *thing*" });
  letter = await send('cordelia', { type: 'direct', to: [server.users.hamlet.id], content: 'Nothing will come of ```nothing```' });
  secret = await send('iago', { type: 'stream', to: verona, topic: 'plans', content: 'hush' });
});
after(() => server.close());

const soon = (s: number) => Math.floor(Date.now() / 1000) + s;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fromNotificationBot(containing: string): Promise<Record<string, any>[]> {
  const res = await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [['is', 'dm']], apply_markdown: false });
  return assertSuccess(res).messages.filter((m: Record<string, any>) => m.sender_full_name === 'Notification Bot' && m.content.includes(containing));
}

test('create, list, delete, with events and the register block, apart from scheduled messages', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia']);
  const h = server.as('hamlet');
  const when = soon(3600);
  const res = await h.post('/reminders', { message_id: mousetrap, scheduled_delivery_timestamp: when, note: '\n\nCatch the conscience of the king  \n\n' });
  const id = assertSuccess(res).reminder_id;
  assert.equal(typeof id, 'number');

  const [add] = await l.waitFor('hamlet', 'reminders');
  assert.equal(add.op, 'add');
  const reminder = add.reminders[0];
  assert.deepEqual(Object.keys(reminder).sort(), ['content', 'failed', 'reminder_id', 'reminder_target_message_id', 'rendered_content', 'scheduled_delivery_timestamp', 'to', 'type']);
  assert.deepEqual(
    [reminder.reminder_id, reminder.type, reminder.to, reminder.scheduled_delivery_timestamp, reminder.failed, reminder.reminder_target_message_id],
    [id, 'private', [server.users.hamlet.id], when, false, mousetrap],
  );
  const link = `${server.url}/#narrow/channel/${denmark}-Denmark/topic/the.20play/near/${mousetrap}`;
  assert.equal(
    reminder.content,
    `You requested a reminder for #**Denmark>the play@${mousetrap}**. Note:\n > Catch the conscience of the king\n\n` +
      `@_**King Hamlet|${server.users.hamlet.id}** [said](${link}):\n\`\`\`quote\nThe play's the *thing*\n\`\`\``,
  );
  assert.match(reminder.rendered_content, new RegExp(`<a class="message-link" href="/#narrow/channel/${denmark}-Denmark/topic/the.20play/near/${mousetrap}">#Denmark &gt; the play @ 💬</a>`));
  assert.match(reminder.rendered_content, /<blockquote>/);
  assert.deepEqual(await l.take('cordelia', 'reminders'), []);

  assert.deepEqual(assertSuccess(await h.get('/reminders')).reminders, [reminder]);
  assert.deepEqual(assertSuccess(await h.get('/scheduled_messages')).scheduled_messages, []);
  const reg = assertSuccess(await h.post('/register', { fetch_event_types: ['reminders', 'scheduled_messages'] }));
  assert.deepEqual([reg.reminders, reg.scheduled_messages], [[reminder], []]);
  assert.deepEqual(assertSuccess(await server.as('cordelia').get('/reminders')).reminders, []);

  // Each kind is reached only through its own endpoints, and only by its owner.
  assertError(await h.delete(`/scheduled_messages/${id}`), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
  assertError(await h.patch(`/scheduled_messages/${id}`, { content: 'x' }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
  assertError(await server.as('cordelia').delete(`/reminders/${id}`), 404, 'BAD_REQUEST', 'Reminder does not exist');
  const scheduled = assertSuccess(await h.post('/scheduled_messages', { type: 'direct', to: [server.users.cordelia.id], content: 'later', scheduled_delivery_timestamp: soon(3600) })).scheduled_message_id;
  assertError(await h.delete(`/reminders/${scheduled}`), 404, 'BAD_REQUEST', 'Reminder does not exist');
  assertSuccess(await h.delete(`/scheduled_messages/${scheduled}`));
  await l.take('hamlet');

  assertSuccess(await h.delete(`/reminders/${id}`));
  const [remove] = await l.waitFor('hamlet', 'reminders');
  assert.deepEqual([remove.op, remove.reminder_id], ['remove', id]);
  assertError(await h.delete(`/reminders/${id}`), 404, 'BAD_REQUEST', 'Reminder does not exist');
  assertError(await h.delete('/reminders/99999999999'), 404, 'BAD_REQUEST', 'Reminder does not exist');
  assert.deepEqual(assertSuccess(await h.get('/reminders')).reminders, []);
});

test('errors: unreadable messages, times in the past, long notes', async () => {
  const h = server.as('hamlet');
  for (const message_id of [secret, 999999, 99999999999]) {
    assertError(await h.post('/reminders', { message_id, scheduled_delivery_timestamp: soon(60) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
  }
  assertError(await h.post('/reminders', { message_id: mousetrap, scheduled_delivery_timestamp: soon(-5) }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
  assertError(await h.post('/reminders', { message_id: mousetrap, scheduled_delivery_timestamp: soon(60), note: 'n'.repeat(1001) }), 400, 'BAD_REQUEST', 'Maximum reminder note length: 1000 characters');
  assertError(await h.post('/reminders', { scheduled_delivery_timestamp: soon(60) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'message_id' argument");
  const ok = assertSuccess(await h.post('/reminders', { message_id: mousetrap, scheduled_delivery_timestamp: soon(60), note: '😀'.repeat(1000) })).reminder_id;
  assertSuccess(await h.delete(`/reminders/${ok}`));
  // The limit is the one register reports.
  assert.equal(assertSuccess(await h.post('/register', { fetch_event_types: ['realm'] })).max_reminder_note_length, 1000);
});

test('delivered by the Notification Bot at its time, once, also across a restart', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia']);
  const h = server.as('hamlet');
  const id = assertSuccess(await h.post('/reminders', { message_id: letter, scheduled_delivery_timestamp: soon(2) })).reminder_id;
  await l.waitFor('hamlet', 'reminders'); // the add

  const seen: Record<string, any>[] = [];
  // The delivery and the reminder's removal are one change, logged together (a busy server may hand a queue the
  // events of one change over two polls).
  const event = await eventually(async () => {
    seen.push(...(await l.take('hamlet')));
    return seen.some((e) => e.type === 'reminders' && e.op === 'remove') ? seen.find((e) => e.type === 'message') : undefined;
  });
  const m = event.message;
  assert.deepEqual([m.type, m.sender_full_name, m.display_recipient.map((r: { id: number }) => r.id).sort()], [
    'private', 'Notification Bot', [m.sender_id, server.users.hamlet.id].sort((a: number, b: number) => a - b),
  ]);
  assert.match(m.content, /You requested a reminder for the following direct message\./);
  assert.match(m.content, new RegExp(`\\[said\\]\\(${server.url}/#narrow/dm/${Math.min(server.users.hamlet.id, server.users.cordelia.id)},${Math.max(server.users.hamlet.id, server.users.cordelia.id)}-dm/near/${letter}\\)`));
  // The quoted message's own backticks cannot close the quote.
  assert.match(m.content, /````quote\nNothing will come of ```nothing```\n````/);
  assert.deepEqual(event.flags, []); // unread for hamlet
  assert.deepEqual(seen.filter((e) => e.type === 'reminders').map((e) => [e.op, e.reminder_id]), [['remove', id]]);
  assert.deepEqual(await l.take('cordelia', 'message'), []);
  assert.deepEqual(assertSuccess(await h.get('/reminders')).reminders, []);

  // Due while the server is down: delivered once after it is back.
  assertSuccess(await h.post('/reminders', { message_id: mousetrap, scheduled_delivery_timestamp: soon(2), note: 'after the restart' }));
  await server.stop('SIGTERM');
  await wait(2500);
  await server.start();
  const delivered = await eventually(async () => {
    const found = await fromNotificationBot('after the restart');
    return found.length ? found : undefined;
  });
  assert.equal(delivered.length, 1);
  // Later passes of the worker send nothing more.
  await wait(1000);
  assert.equal((await fromNotificationBot('after the restart')).length, 1);
  assert.deepEqual(assertSuccess(await h.get('/reminders')).reminders, []);
});

test('a reminder of someone who can no longer receive it fails and stays listed', async () => {
  const c = server.as('cordelia');
  const id = assertSuccess(await c.post('/reminders', { message_id: mousetrap, scheduled_delivery_timestamp: soon(2) })).reminder_id;
  const { findRealmBySubdomain } = await import('../src/store/realms.js');
  const { updateUser } = await import('../src/store/users.js');
  await server.withApp(async (app) => updateUser(app.db, server.users.cordelia.id, { isActive: false }));
  try {
    const failed = await eventually(() =>
      server.withApp(async (app) => {
        const realm = (await findRealmBySubdomain(app.db, ''))!;
        const row = await app.db.selectFrom('scheduled_messages').select(['failed', 'delivered']).where('id', '=', id).where('realm_id', '=', realm.id).executeTakeFirstOrThrow();
        return row.failed || row.delivered ? row : undefined;
      }),
    );
    assert.deepEqual([failed.failed, failed.delivered], [1, 0]);
  } finally {
    await server.withApp(async (app) => updateUser(app.db, server.users.cordelia.id, { isActive: true }));
  }
  const listed = assertSuccess(await c.get('/reminders')).reminders;
  assert.deepEqual(listed.map((r: { reminder_id: number; failed: boolean }) => [r.reminder_id, r.failed]), [[id, true]]);
});
