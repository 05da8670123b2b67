// Message a channel by e-mail: GET /streams/{id}/email_address, and real SMTP sessions (nodemailer's SMTP
// transport) to the gateway a running server opens on PARLANCE_EMAIL_GATEWAY_LISTEN.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { channelName, createChannel, fetchMessages } from './helpers/messages.js';

const DOMAIN = 'gateway.example.com';
let server: TestServer;
let port = 0;

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: p } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return p;
}

before(async () => {
  port = await freePort();
  server = await startTestServer({
    env: { PARLANCE_EMAIL_GATEWAY_DOMAIN: DOMAIN, PARLANCE_EMAIL_GATEWAY_LISTEN: `127.0.0.1:${port}`, PARLANCE_EMAIL_GATEWAY_MAX_MIB: '1' },
  });
});
after(() => server?.close());

const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
const addressOf = async (channel: number) => assertSuccess(await server.as('hamlet').get(`/streams/${channel}/email_address`)).email as string;
const topicMessages = async (channel: number, topic: string) =>
  (await fetchMessages(server, 'hamlet', { narrow: JSON.stringify([{ operator: 'channel', operand: channel }, { operator: 'topic', operand: topic }]), apply_markdown: 'false' }))
    .messages as Record<string, any>[];

test("a channel's address has the reference's shape, one token per channel, for those who may post there", async () => {
  const channel = await createChannel(server, 'hamlet', ['hamlet'], {}, 'Design & Ops');
  const email = await addressOf(channel);
  assert.match(email, new RegExp(`^design-ops\\.[0-9a-f]{32}\\.show-sender@${DOMAIN.replaceAll('.', '\\.')}$`));
  assert.equal(await addressOf(channel), email);
  const other = await addressOf(await createChannel(server, 'hamlet', ['hamlet']));
  assert.notEqual(other.split('.')[1], email.split('.')[1]);

  const secret = await createChannel(server, 'hamlet', ['hamlet'], { invite_only: true });
  assertError(await server.as('cordelia').get(`/streams/${secret}/email_address`), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('cordelia').get('/streams/99999/email_address'), 400, 'BAD_REQUEST', 'Invalid channel ID');
  // A guest may not post in a public channel they are not subscribed to.
  assertError(await server.as('polonius').get(`/streams/${channel}/email_address`), 400, 'BAD_REQUEST', /Invalid channel ID|Not authorized to send to channel/);
});

test('a mail is posted by the Email Gateway in the channel: subject as topic, text as content, attachments uploaded', async () => {
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  const to = await addressOf(channel);
  const spaceUsed = async () => assertSuccess(await server.as('hamlet').get('/attachments')).upload_space_used as number;
  const before = await spaceUsed();
  const info = await transport().sendMail({
    from: 'Alice <alice@elsewhere.example>', to, subject: 'Re: Weekly report',
    text: 'Numbers are up.\n\nSee the notes.\n',
    attachments: [{ filename: 'notes.txt', content: 'the notes' }],
  });
  assert.equal(info.accepted.length, 1);
  const [m] = await topicMessages(channel, 'Weekly report');
  assert.equal(m.sender_full_name, 'Email Gateway');
  assert.match(m.sender_email, /^emailgateway@/);
  const [first, ...rest] = m.content.split('\n');
  assert.equal(first, 'From: "Alice" <alice@elsewhere.example>');
  assert.match(rest.join('\n'), /^Numbers are up\.\n\nSee the notes\.\n\[notes\.txt\]\(\/user_uploads\/\d+\/[^)]+\/notes\.txt\)$/);
  const url = /\((\/user_uploads\/[^)]+)\)/.exec(m.content)![1];
  // Readers of the channel reach the file (GET /api/v1/user_uploads/… answers a temporary URL).
  const temporary = assertSuccess(await server.as('hamlet').get(url)).url as string;
  const file = await fetch(new URL(temporary, server.url));
  assert.equal(file.status, 200);
  assert.equal(await file.text(), 'the notes');
  // The file counts in the organization's upload quota.
  assert.equal(await spaceUsed(), before + 'the notes'.length);
});

test('HTML is converted; an empty subject gets the default topic; an empty mail says so', async () => {
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  const to = await addressOf(channel);
  await transport().sendMail({ from: 'bob@elsewhere.example', to, subject: '', html: '<p>Hello <b>team</b></p><ul><li>one</li><li>two</li></ul>' });
  const [m] = await topicMessages(channel, 'Email with no subject');
  assert.equal(m.content, 'From: bob@elsewhere.example\nHello team\n\n * one\n * two');
  await transport().sendMail({ from: 'bob@elsewhere.example', to, subject: 'Fwd: nothing', text: '' });
  const [empty] = await topicMessages(channel, 'nothing');
  assert.equal(empty.content, 'From: bob@elsewhere.example\n(No email body)');
});

test('unknown addresses are refused at RCPT, and oversized mail at DATA', async () => {
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  const to = await addressOf(channel);
  const token = to.split('.')[1];
  for (const bad of [`general.${'0'.repeat(32)}@${DOMAIN}`, `general.${token}@other.example.com`, `nobody@${DOMAIN}`]) {
    await assert.rejects(transport().sendMail({ from: 'x@elsewhere.example', to: bad, subject: 's', text: 't' }), (err: any) => {
      assert.equal(err.responseCode, 550, bad);
      assert.equal(err.command, 'RCPT TO', bad);
      return true;
    });
  }
  // Only the token counts: the channel's name may be spelt any way (or renamed since).
  await transport().sendMail({ from: 'x@elsewhere.example', to: `renamed.${token}@${DOMAIN}`, subject: 'by token', text: 'still arrives' });
  assert.equal((await topicMessages(channel, 'by token')).length, 1);

  await assert.rejects(
    transport().sendMail({ from: 'x@elsewhere.example', to, subject: 'big', text: 'x', attachments: [{ filename: 'big.bin', content: Buffer.alloc(1.5 * 1024 * 1024) }] }),
    (err: any) => err.responseCode === 552,
  );
  assert.equal((await topicMessages(channel, 'big')).length, 0);
  assert.ok(await channelName(server, channel));
});

test('without a gateway domain the address is refused with a clear message', async () => {
  const plain = await startTestServer();
  try {
    const channel = await createChannel(plain, 'hamlet', ['hamlet']);
    assertError(await plain.as('hamlet').get(`/streams/${channel}/email_address`), 400, 'BAD_REQUEST', 'The e-mail gateway is not configured on this server.');
  } finally {
    await plain.close();
  }
});
