// E-mail invitations (POST /invites, GET /invites, DELETE /invites/{id}, POST /invites/{id}/resend) and the
// outgoing mail they need: sent to a real SMTP server in this process, retried after the server refused, or
// written to the outbox/ folder when no SMTP server is configured; the mailed link signs its address up once.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Client, send, type Reply } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { eventually, Listeners } from './helpers/events.js';
import { validateEvent } from './helpers/openapi-events.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { createChannel } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

// An SMTP server that keeps what it receives, and refuses recipients while `refusing`.
const inbox: Received[] = [];
let refusing = false;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, cb) {
    cb(refusing ? Object.assign(new Error('Mailbox unavailable, try later'), { responseCode: 451 }) : undefined);
  },
  onData(stream, session, cb) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      inbox.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      cb();
    });
  },
});

// The text of a quoted-printable body, as a mail reader shows it.
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
const linkIn = (raw: string) => /https?:\/\/\S+\/join\/[A-Za-z0-9]+\//.exec(decoded(raw))?.[0];

let server: TestServer;
let denmark: number;
before(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({
    env: { PARLANCE_SMTP_URL: `smtp://127.0.0.1:${port}`, PARLANCE_MAIL_FROM: 'invitations@elsinore.example', PARLANCE_MAIL_POLL_MS: '100' },
  });
  denmark = await createChannel(server, 'iago', ['iago']);
});
after(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

const mailTo = (address: string) => eventually(async () => inbox.find((m) => m.to.includes(address)));
const invites = async (as: 'iago' | 'hamlet') => {
  const body = assertSuccess(await server.as(as).get('/invites'));
  assertMatchesSchema('/invites', 'get', body);
  return body.invites as { id: number; email?: string; is_multiuse: boolean; invited_by_user_id: number; notify_referrer_on_join?: boolean }[];
};

function page(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<Reply> {
  const body = form && new URLSearchParams(form).toString();
  return send(method, new URL(url), body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, body);
}

describe('inviting by e-mail', () => {
  test('end to end: the mail over SMTP, the listing, the sign-up of that address only, the inviter told, the link spent', async () => {
    const l = await Listeners.open(server, ['iago', 'hamlet']);
    const res = await server.as('iago').post('/invites', {
      invitee_emails: `horatio@elsinore.example, ${server.users.hamlet.email}`, invite_as: 300, stream_ids: JSON.stringify([denmark]), invite_expires_in_minutes: 1440,
    });
    // The address with an account is named; the other was invited anyway.
    const err = assertError(res, 400, 'INVITATION_FAILED', "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!");
    assert.deepEqual([err.errors, err.sent_invitations, err.license_limit_reached, err.daily_limit_reached], [[[server.users.hamlet.email, 'Already has an account.', false]], true, false, false]);
    const [changed] = await l.waitFor('iago', 'invites_changed');
    assert.deepEqual(validateEvent(changed), []);
    assert.deepEqual(await l.take('hamlet', 'invites_changed'), []);

    const mine = (await invites('iago')).find((i) => i.email === 'horatio@elsinore.example')!;
    assert.deepEqual([mine.is_multiuse, mine.invited_by_user_id, mine.notify_referrer_on_join], [false, server.users.iago.id, true]);
    assert.equal((await invites('hamlet')).find((i) => i.id === mine.id), undefined, "members see only their own invitations");

    const mail = await mailTo('horatio@elsinore.example');
    assert.equal(mail.from, 'invitations@elsinore.example');
    assert.match(mail.raw, /^Subject: .*invited you to join Zulip Dev/m);
    const link = linkIn(mail.raw);
    assert.ok(link, mail.raw);

    const form = await page('GET', link);
    assert.equal(form.status, 200, form.text);
    assert.match(form.text, /value="horatio@elsinore.example" readonly/);
    assert.match(form.text, /invited to join as a moderator/);
    // The account is of the invited address, whatever the form says.
    const joined = await page('POST', link, { full_name: 'Horatio', email: 'someone-else@elsinore.example', password: 'a truant disposition' });
    // The newcomer lands in the web app, logged in.
    assert.equal(joined.status, 303, joined.text);
    assert.equal(joined.headers.location, '/');
    assert.match(String(joined.headers['set-cookie']), /sessionid=[A-Za-z0-9]{40}/);
    const apiKey = assertSuccess(await server.anon().post('/fetch_api_key', { username: 'horatio@elsinore.example', password: 'a truant disposition' })).api_key;
    const horatio = new Client(server.url, { email: 'horatio@elsinore.example', apiKey });
    const me = assertSuccess(await horatio.get('/users/me'));
    assert.deepEqual([me.email, me.role], ['horatio@elsinore.example', 300]);
    const subs = assertSuccess(await horatio.get('/users/me/subscriptions')).subscriptions.map((s: { stream_id: number }) => s.stream_id);
    assert.ok(subs.includes(denmark));

    const dms = assertSuccess(await server.as('iago').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([['is', 'dm']]), apply_markdown: false })).messages;
    const told = dms.find((m: { sender_full_name: string; content: string }) => m.sender_full_name === 'Notification Bot' && m.content.includes('accepted your invitation'));
    assert.ok(told, JSON.stringify(dms));
    assert.equal(told.content, `@_**Horatio|${me.user_id}** accepted your invitation to join Zulip Dev!`);

    assert.equal((await invites('iago')).find((i) => i.id === mine.id), undefined);
    const again = await page('GET', link);
    assert.equal(again.status, 410);
    assert.match(again.text, /already been used/);
    assertError(await server.as('iago').delete(`/invites/${mine.id}`), 400, 'BAD_REQUEST', 'No such invitation');
  });

  test('refused invitations: bad addresses, no addresses, too many, roles above one\'s own, guests, channels', async () => {
    const failed = assertError(
      await server.as('iago').post('/invites', { invitee_emails: 'yorick@elsinore.example\nnot-an-address', stream_ids: '[]' }),
      400, 'INVITATION_FAILED', "Some emails did not validate, so we didn't send any invitations.",
    );
    assert.deepEqual([failed.errors.map((e: unknown[]) => e[0]), failed.sent_invitations], [['not-an-address'], false]);
    assert.equal((await invites('iago')).find((i) => i.email === 'yorick@elsinore.example'), undefined);
    const all = assertError(await server.as('iago').post('/invites', { invitee_emails: server.users.hamlet.email, stream_ids: '[]' }), 400, 'INVITATION_FAILED', "We weren't able to invite anyone.");
    assert.equal(all.sent_invitations, false);
    assertError(await server.as('iago').post('/invites', { invitee_emails: ' , ', stream_ids: '[]' }), 400, 'BAD_REQUEST', 'You must specify at least one email address.');
    const many = Array.from({ length: 101 }, (_, i) => `guest${i}@elsinore.example`).join(',');
    assertError(await server.as('iago').post('/invites', { invitee_emails: many, stream_ids: '[]' }), 400, 'BAD_REQUEST', 'invitee_emails has too many items (limit: 100)');
    assertError(await server.as('hamlet').post('/invites', { invitee_emails: 'a@elsinore.example', invite_as: 200, stream_ids: '[]' }), 400, 'BAD_REQUEST', 'Insufficient permission');
    assertError(await server.as('polonius').post('/invites', { invitee_emails: 'a@elsinore.example', stream_ids: '[]' }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await server.as('iago').post('/invites', { invitee_emails: 'a@elsinore.example', invite_as: 7, stream_ids: '[]' }), 400, 'BAD_REQUEST', 'Invalid invite_as');
    assertError(await server.as('iago').post('/invites', { invitee_emails: 'a@elsinore.example', stream_ids: '[999999]' }), 400, 'BAD_REQUEST', 'Invalid channel ID 999999. No invites were sent.');
    assertError(await server.as('iago').post('/invites', { invitee_emails: 'a@elsinore.example' }), 400, 'REQUEST_VARIABLE_MISSING', 'Missing \'stream_ids\' argument');
  });

  test('revoking and resending: by the inviter or an administrator; a revoked link shows so', async () => {
    assertSuccess(await server.as('hamlet').post('/invites', { invitee_emails: 'ophelia@elsinore.example', stream_ids: '[]', notify_referrer_on_join: false }));
    const first = await mailTo('ophelia@elsinore.example');
    const invite = (await invites('hamlet')).find((i) => i.email === 'ophelia@elsinore.example')!;
    assert.equal(invite.notify_referrer_on_join, false);
    assertError(await server.as('cordelia').post(`/invites/${invite.id}/resend`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await server.as('cordelia').delete(`/invites/${invite.id}`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertSuccess(await server.as('iago').post(`/invites/${invite.id}/resend`));
    await eventually(async () => (inbox.filter((m) => m.to.includes('ophelia@elsinore.example')).length === 2 ? true : undefined));
    const l = await Listeners.open(server, ['iago', 'hamlet']);
    assertSuccess(await server.as('hamlet').delete(`/invites/${invite.id}`));
    for (const who of ['iago', 'hamlet'] as const) assert.deepEqual(validateEvent((await l.waitFor(who, 'invites_changed'))[0]), []);
    const revoked = await page('GET', linkIn(first.raw)!);
    assert.equal(revoked.status, 410);
    assert.match(revoked.text, /has been revoked/);
    assertError(await server.as('hamlet').delete(`/invites/${invite.id}`), 400, 'BAD_REQUEST', 'Invitation has already been revoked');
    assertError(await server.as('hamlet').post(`/invites/${invite.id}/resend`), 400, 'BAD_REQUEST', 'Invitation has already been revoked');
    assertError(await server.as('iago').post('/invites/999999/resend'), 400, 'BAD_REQUEST', 'No such invitation');
  });
});

describe('outgoing mail', () => {
  test('a refused mail does not fail the request, and is sent on a later attempt', async () => {
    refusing = true;
    assertSuccess(await server.as('iago').post('/invites', { invitee_emails: 'laertes@elsinore.example', stream_ids: '[]' }));
    const failedOnce = await eventually(() =>
      withDb(server, async (db) => {
        const row = await db.selectFrom('outgoing_mail').selectAll().where('to_address', '=', 'laertes@elsinore.example').executeTakeFirst();
        return row && row.attempts === 1 && row.last_error ? row : undefined;
      }),
    );
    assert.equal(failedOnce.sent_at, null);
    assert.ok(Number(failedOnce.next_attempt) >= Math.floor(Date.now() / 1000) + 20, 'the next attempt waits');
    refusing = false;
    // Time passes: the attempt is due.
    await withDb(server, (db) => db.updateTable('outgoing_mail').set({ next_attempt: 0 }).where('id', '=', failedOnce.id).execute());
    await mailTo('laertes@elsinore.example');
    await eventually(() =>
      withDb(server, async (db) => {
        const row = await db.selectFrom('outgoing_mail').selectAll().where('id', '=', failedOnce.id).executeTakeFirstOrThrow();
        return row.sent_at !== null && row.attempts === 2 ? true : undefined;
      }),
    );
  });

  test('without an SMTP server, mails are written to the outbox as .eml files', async () => {
    const plain = await startTestServer({ env: { PARLANCE_MAIL_POLL_MS: '100' } });
    try {
      assertSuccess(await plain.as('iago').post('/invites', { invitee_emails: 'fortinbras@norway.example', stream_ids: '[]' }));
      const outbox = path.join(plain.db.dataDir, 'outbox');
      const file = await eventually(async () => (await fs.readdir(outbox).catch(() => [] as string[])).find((f) => f.endsWith('.eml')));
      const raw = await fs.readFile(path.join(outbox, file), 'utf8');
      assert.match(raw, /^To: fortinbras@norway.example$/m);
      assert.match(raw, /^From: noreply@/m);
      assert.ok(linkIn(raw), raw);
    } finally {
      await plain.close();
    }
  });
});
