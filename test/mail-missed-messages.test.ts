// Missed-message mails: direct messages and mentions a user has not read PARLANCE_MISSED_MESSAGE_DELAY_SECONDS
// after they arrived (here 2 s) reach them in ONE mail per batch, over a real SMTP server; none for what they
// read meanwhile, none while they have a live event queue, none when their settings say so; the content only
// where the organization and the user allow it. Waiting notifications survive a restart.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel, sendDm, sendToChannel } from './helpers/messages.js';
import { linkIn, TestInbox } from './helpers/smtp.js';

const inbox = new TestInbox();
let server: TestServer;
before(async () => {
  const smtp = await inbox.start();
  server = await startTestServer({ env: { PARLANCE_SMTP_URL: smtp, PARLANCE_MAIL_POLL_MS: '100', PARLANCE_MISSED_MESSAGE_DELAY_SECONDS: '2' } });
});
after(async () => {
  await server.close();
  await inbox.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('two missed direct messages make exactly one mail, with their content and links to the app', async () => {
  await sendDm(server, 'hamlet', ['cordelia'], 'Where is the <b>king</b>?');
  await sendDm(server, 'hamlet', ['cordelia'], 'Answer me & quickly');
  const mail = await inbox.nth(server.users.cordelia.email, 1);
  assert.equal(mail.subject, 'New messages from King Hamlet');
  assert.match(mail.text, /Where is the <b>king<\/b>\?/);
  assert.match(mail.text, /Answer me & quickly/);
  assert.ok(mail.html.includes('Where is the &lt;b&gt;king&lt;/b&gt;?'), mail.html);
  assert.ok(linkIn(mail.text, '/#narrow/near/')?.startsWith(server.url));
  await sleep(3000);
  assert.equal(inbox.to(server.users.cordelia.email).length, 1, 'one mail for the batch');
});

test('none for a message read meanwhile, none for a user with a live event queue, none when turned off', async () => {
  const read = await sendDm(server, 'hamlet', ['polonius'], 'read me now');
  assertSuccess(await server.as('polonius').post('/messages/flags', { messages: JSON.stringify([read]), op: 'add', flag: 'read' }));
  assertSuccess(await server.as('iago').post('/register', { event_types: JSON.stringify(['message']) }));
  await sendDm(server, 'hamlet', ['iago'], 'iago is here');
  assertSuccess(await server.as('desdemona').patch('/settings', { enable_offline_email_notifications: false }));
  await sendDm(server, 'hamlet', ['desdemona'], 'no mails please');
  // A later notification arrives: the earlier ones were due before it.
  await sendDm(server, 'hamlet', ['shiva'], 'shiva is away');
  await inbox.nth(server.users.shiva.email, 1);
  await sleep(500);
  for (const who of ['polonius', 'iago', 'desdemona'] as const) assert.deepEqual(inbox.to(server.users[who].email), [], who);
  assertSuccess(await server.as('desdemona').patch('/settings', { enable_offline_email_notifications: true }));
});

test('a mention in a channel; wildcard mentions follow wildcard_mentions_notify; the content only where allowed', async () => {
  const channel = await createChannel(server, 'iago', ['iago', 'hamlet', 'shiva', 'polonius', 'desdemona']);
  assertSuccess(await server.as('polonius').patch('/settings', { wildcard_mentions_notify: false }));
  assertSuccess(await server.as('desdemona').patch('/realm', { message_content_allowed_in_email_notifications: false }));
  await sendToChannel(server, 'iago', channel, 'castle', `@**King Hamlet** the ghost, @**all** see the secret plan`);
  const mail = await inbox.nth(server.users.hamlet.email, 1);
  assert.match(mail.subject, /> castle$/);
  assert.match(mail.text, /Iago sent you a message/);
  assert.doesNotMatch(mail.text, /secret plan/);
  // Shiva gets the wildcard mention.
  await inbox.nth(server.users.shiva.email, 2);
  await sleep(500);
  assert.deepEqual(inbox.to(server.users.polonius.email), []);
  assertSuccess(await server.as('desdemona').patch('/realm', { message_content_allowed_in_email_notifications: true }));
  assertSuccess(await server.as('shiva').patch('/settings', { message_content_in_email_notifications: false }));
  await sendDm(server, 'hamlet', ['shiva'], 'the other secret');
  const third = await inbox.nth(server.users.shiva.email, 3);
  assert.doesNotMatch(third.text, /the other secret/);
  assert.match(third.text, /King Hamlet sent you a message/);
});

test('a plain message in a followed topic (enable_followed_topic_email_notifications), none in a topic not followed', async () => {
  const channel = await createChannel(server, 'iago', ['iago', 'shiva', 'cordelia']);
  assertSuccess(await server.as('shiva').patch('/settings', { message_content_in_email_notifications: true }));
  assertSuccess(await server.as('shiva').post('/user_topics', { stream_id: channel, topic: 'ramparts', visibility_policy: 3 }));
  await sendToChannel(server, 'iago', channel, 'ramparts', 'the watch changes at midnight');
  const mail = await inbox.nth(server.users.shiva.email, 4);
  assert.match(mail.text, /the watch changes at midnight/);
  await sleep(500);
  assert.equal(inbox.to(server.users.cordelia.email).length, 1, 'cordelia does not follow the topic');
});

test('waiting notifications survive a restart', async () => {
  await sendDm(server, 'iago', ['hamlet'], 'after the restart');
  await sleep(500);
  await server.restart();
  const mail = await inbox.nth(server.users.hamlet.email, 2);
  assert.match(mail.text, /after the restart/);
});
