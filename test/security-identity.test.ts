// Permission-matrix column "colliding identity": no address (or bot name) can be made to equal, or differ only in
// case or look-alike characters from, another user's, a system bot's or a placeholder address; system bots are
// found by identity; placeholder addresses resolve only to the user they name. Every path that creates or changes
// an address is tried: POST /users, POST /bots, sign-up, e-mail change, organization creation, the command line.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD, startTestServer, type TestServer } from './helpers/server.js';
import { runCli } from './helpers/cli.js';
import { Client, send, type Reply } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { createChannel, sendToChannel, withApp } from './helpers/messages.js';
import { eventually } from './helpers/events.js';
import { setRealmSettings } from './helpers/direct-db.js';
import { findRealmBySubdomain, updateRealm } from '../src/store/realms.js';
import { insertUser, ROLE } from '../src/store/users.js';
import { doCreateRealm } from '../src/actions/realms.js';
import { ApiError } from '../src/lib/errors.js';

let server: TestServer;
let host: string; // the organization's host name: bot addresses are made with it
before(async () => {
  server = await startTestServer({ env: { PARLANCE_LOG_LEVEL: 'info' } });
  host = new URL(server.url).hostname;
});
after(() => server?.close());

const placeholder = (id: number) => `user${id}@parlance.invalid`;
const CYRILLIC_A = '\u0430';
const taken = (e: string) => `Email '${e}' already in use`;
const systemBot = (e: string) => `${e} is reserved for system bots`;
const reserved = (e: string) => `${e} is reserved for placeholder addresses`;
const invalid = (e: string) => `Invalid email '${e}'`;

function refused(res: Reply, msg: string, what: string): void {
  assert.equal(res.body?.msg, msg, `${what}: ${res.text}`);
  assertError(res, 400, 'BAD_REQUEST', msg);
}

// A row written behind the API's back, as data from before these checks could hold.
async function legacyUser(email: string, bot: { ownerId: number } | null = null): Promise<{ id: number; apiKey: string }> {
  return withApp(server, async (app) => {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    const apiKey = `legacy${Math.random().toString(36).slice(2)}`.padEnd(32, 'x').slice(0, 32);
    const u = await insertUser(app.db, {
      realmId: realm.id, email, fullName: `Legacy ${email.slice(0, 8)}`, role: ROLE.member, isBot: bot !== null, botType: bot ? 1 : null,
      botOwnerId: bot?.ownerId ?? null, passwordHash: null, apiKey, now: Math.floor(Date.now() / 1000),
    });
    return { id: u.id, apiKey };
  });
}

// The colliding forms of an address, each with the message that refuses it. `other` belongs to another user.
function addressForms(other: string, placeholderId: number): [string, string, string][] {
  const [local, domain] = other.split('@');
  const lookDomain = domain.replace('a', CYRILLIC_A);
  return [
    ['another user\'s address', other, taken(other)],
    ['another user\'s address in another case', other.toUpperCase(), taken(other.toUpperCase())],
    ['another user\'s address, padded', `  ${other} `, taken(other)],
    ['a look-alike domain (Cyrillic a)', `${local}@${lookDomain}`, taken(`${local}@${lookDomain}`)],
    ['a look-alike domain (fullwidth letters)', `${local}@\uff5a${domain.slice(1)}`, taken(`${local}@\uff5a${domain.slice(1)}`)],
    ['a look-alike local part (Cyrillic a)', `${local.replace('a', CYRILLIC_A)}@${domain}`, invalid(`${local.replace('a', CYRILLIC_A)}@${domain}`)],
    ['an invisible character in the domain', `${local}@${domain.slice(0, 3)}\u200b${domain.slice(3)}`, taken(`${local}@${domain.slice(0, 3)}\u200b${domain.slice(3)}`)],
    ['the Notification Bot\'s address', `notification-bot@${host}`, systemBot(`notification-bot@${host}`)],
    ['the Welcome Bot\'s address, in another case and domain', 'Welcome-Bot@zulip.example.com', systemBot('Welcome-Bot@zulip.example.com')],
    ['a placeholder address', placeholder(placeholderId), reserved(placeholder(placeholderId))],
    ['an address at the placeholder domain', 'someone@parlance.invalid', reserved('someone@parlance.invalid')],
    ['an address at another organization\'s placeholder domain', 'someone@lear.parlance.invalid', reserved('someone@lear.parlance.invalid')],
  ];
}

describe('system bots are found by identity, never by address', () => {
  let moderation: number;
  before(async () => {
    moderation = await createChannel(server, 'iago', ['iago', 'shiva'], { invite_only: true });
    await withApp(server, async (app) => {
      const realm = (await findRealmBySubdomain(app.db, ''))!;
      await updateRealm(app.db, realm.id, { settings: { ...realm.settings, moderation_request_channel_id: moderation } });
    });
  });

  test('a member cannot make a bot whose address is a system bot\'s', async () => {
    for (const short of ['notification', 'welcome', 'Notification', 'WELCOME']) {
      refused(await server.as('hamlet').post('/bots', { full_name: `Fake ${short}`, short_name: short }), systemBot(`${short}-bot@${host}`), short);
    }
  });

  test('a legacy bot holding the Notification Bot\'s address never receives a report, and start-up reports it', async () => {
    const impostor = await legacyUser(`notification-bot@${host}`, { ownerId: server.users.hamlet.id });
    const verona = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
    const id = await sendToChannel(server, 'hamlet', verona, 'Quarrel', 'harsh words');
    assertSuccess(await server.as('cordelia').post(`/messages/${id}/report`, { report_type: 'spam' }));
    const notices = assertSuccess(await server.as('iago').get('/messages', {
      anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: moderation }],
    })).messages;
    const notice = notices.at(-1);
    assert.equal(notice.sender_full_name, 'Notification Bot');
    assert.notEqual(notice.sender_id, impostor.id, 'the report went to the impostor');
    const asImpostor = new Client(server.url, { email: `notification-bot@${host}`, apiKey: impostor.apiKey });
    const seen = assertSuccess(await asImpostor.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0 })).messages;
    assert.ok(!seen.some((m: { id: number }) => m.id === notice.id), 'the impostor reads the report');
    // The same bot keeps sending the next notice.
    const id2 = await sendToChannel(server, 'hamlet', verona, 'Quarrel', 'harsher words');
    assertSuccess(await server.as('cordelia').post(`/messages/${id2}/report`, { report_type: 'spam' }));
    const next = assertSuccess(await server.as('iago').get('/messages', {
      anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: moderation }],
    })).messages[0];
    assert.equal(next.sender_id, notice.sender_id);

    await server.restart();
    // The log is written asynchronously: the line may follow the "listening" line by a moment.
    const warningLine = () => server.stdout.split('\n').find((l) => l.includes('colliding') && l.includes(`user ${impostor.id} `));
    const warning = await eventually(async () => warningLine(), 5000).catch(() => undefined);
    assert.ok(warning, `no start-up warning names user ${impostor.id}:\n${server.stdout}`);
    assert.match(warning, /notification-bot@/);
    assert.equal(JSON.parse(warning).level, 40); // pino's warn
  });
});

describe('placeholder addresses', () => {
  test('no real address may be the placeholder address of a user who hides theirs', async () => {
    assertSuccess(await server.as('cordelia').patch('/settings', { email_address_visibility: 4 }));
    const fake = placeholder(server.users.cordelia.id);
    assert.equal(assertSuccess(await server.as('hamlet').get(`/users/${server.users.cordelia.id}`)).user.email, fake);
    assertError(await server.as('iago').post('/users', { email: fake, password: PASSWORD, full_name: 'Not Cordelia' }), 400, 'BAD_REQUEST', reserved(fake));
    assertError(await server.as('iago').post('/users', { email: 'user999999@parlance.invalid', password: PASSWORD, full_name: 'Nobody Yet' }), 400, 'BAD_REQUEST', reserved('user999999@parlance.invalid'));
  });

  test('lookups by a placeholder address resolve only to the user it names, even past a legacy row holding it', async () => {
    const fake = placeholder(server.users.cordelia.id);
    const impostor = await legacyUser(fake);
    const got = assertSuccess(await server.as('hamlet').get(`/users/${encodeURIComponent(fake)}`)).user;
    assert.equal(got.user_id, server.users.cordelia.id);
    const sent = assertSuccess(await server.as('hamlet').post('/messages', { type: 'private', to: JSON.stringify([fake]), content: 'for Cordelia' }));
    const message = assertSuccess(await server.as('hamlet').get(`/messages/${sent.id}`)).message;
    assert.deepEqual(message.display_recipient.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b),
      [server.users.hamlet.id, server.users.cordelia.id].sort((a, b) => a - b));
    const asImpostor = new Client(server.url, { email: fake, apiKey: impostor.apiKey });
    // The impostor cannot even log in with the placeholder address: it names Cordelia.
    assert.equal((await asImpostor.get(`/messages/${sent.id}`)).status, 401);
    const narrow = assertSuccess(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'dm', operand: fake }] })).messages;
    assert.ok(narrow.some((m: { id: number }) => m.id === sent.id));
  });

  test('one logs in with one\'s API e-mail or real address, not with the placeholder of an address one shows', async () => {
    const login = (name: 'hamlet' | 'cordelia', email: string) => new Client(server.url, { email, apiKey: server.users[name].apiKey }).get('/users/me');
    assert.equal((await login('cordelia', placeholder(server.users.cordelia.id))).status, 200);
    assert.equal((await login('cordelia', server.users.cordelia.email)).status, 200);
    assert.equal((await login('hamlet', placeholder(server.users.hamlet.id))).status, 401);
  });
});

describe('colliding identity: every path that creates or changes an address', () => {
  test('POST /users', async () => {
    for (const [what, email, msg] of addressForms(server.users.hamlet.email, server.users.cordelia.id)) {
      refused(await server.as('iago').post('/users', { email, password: PASSWORD, full_name: 'Collider' }), msg, what);
    }
  });

  test('POST /bots: short names whose address collides', async () => {
    assertSuccess(await server.as('iago').post('/users', { email: `taken-bot@${host}`, password: PASSWORD, full_name: 'Taken Person' }));
    assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Matrix Bot', short_name: 'matrix' }));
    const cases: [string, string][] = [
      ['matrix', 'Username already in use'],
      ['MATRIX', 'Username already in use'],
      [' matrix ', 'Username already in use'],
      [`m${CYRILLIC_A}trix`, 'Bad name or username'],
      ['taken', 'Username already in use'],
      ['notification', systemBot(`notification-bot@${host}`)],
      ['Welcome', systemBot(`Welcome-bot@${host}`)],
    ];
    for (const [short, msg] of cases) {
      refused(await server.as('cordelia').post('/bots', { full_name: `Bot ${cases.findIndex((c) => c[0] === short)}`, short_name: short }), msg, short);
    }
  });

  test('POST /bots and PATCH /bots/{id}: names that collide with a system bot\'s or another user\'s', async () => {
    const { user_id: mine } = assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Plain Helper', short_name: 'plainhelper' }));
    const names = ['Notification Bot', 'notification bot', `Notification Bot`.replace('o', '\u043e'), 'Welcome Bot', 'KING HAMLET', 'Matrix Bot'];
    for (const full_name of names) {
      refused(await server.as('hamlet').post('/bots', { full_name, short_name: `n${names.indexOf(full_name)}` }), 'Name is already in use!', full_name);
      refused(await server.as('hamlet').patch(`/bots/${mine}`, { full_name }), 'Name is already in use!', full_name);
    }
  });

  test('PATCH /settings: with unique names required, a look-alike of another user\'s name is refused', async () => {
    await setRealmSettings(server, { require_unique_names: true });
    try {
      for (const full_name of ['CORDELIA, LEAR\'S DAUGHTER', `C\u043erdelia, Lear's daughter`, 'Cordelia,\u200b Lear\'s daughter']) {
        refused(await server.as('hamlet').patch('/settings', { full_name }), 'Unique names required in this organization.', full_name);
      }
    } finally {
      await setRealmSettings(server, { require_unique_names: undefined });
    }
  });

  test('sign-up through an invitation link', async () => {
    const url = assertSuccess(await server.as('iago').post('/invites/multiuse', {})).invite_link;
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    for (const [what, email, msg] of addressForms(server.users.hamlet.email, server.users.cordelia.id)) {
      const body = new URLSearchParams({ full_name: 'Collider', email, password: PASSWORD }).toString();
      const res: Reply = await send('POST', new URL(url), { 'content-type': 'application/x-www-form-urlencoded' }, body);
      assert.equal(res.status, 400, `${what}: ${res.text}`);
      assert.ok(res.text.includes(`<p class="error" role="alert">${escape(msg)}</p>`), `${what}: ${escape(msg)} not in ${res.text}`);
    }
  });

  test('e-mail change: refused when asked, and again at confirmation if a look-alike was taken meanwhile', async () => {
    for (const [what, email, msg] of addressForms(server.users.iago.email, server.users.cordelia.id)) {
      refused(await server.as('shiva').patch('/settings', { email }), msg, what);
    }
    const wanted = 'shiva.new@zulip.example.com';
    server.stdout = '';
    assertSuccess(await server.as('shiva').patch('/settings', { email: wanted }));
    await new Promise((r) => setTimeout(r, 200));
    const path = /"path":"(\/accounts\/confirm_new_email\/[A-Za-z0-9]+)"/.exec(server.stdout)?.[1];
    assert.ok(path, server.stdout);
    const lookAlike = wanted.replace('example', `ex${CYRILLIC_A}mple`);
    assertSuccess(await server.as('iago').post('/users', { email: lookAlike, password: PASSWORD, full_name: 'Early Bird' }));
    const confirm = await server.anon().get(path, {}, { root: true });
    assert.equal(confirm.status, 400, confirm.text);
    assert.equal(confirm.body.msg, taken(wanted));
    assert.equal(assertSuccess(await server.as('iago').get(`/users/${server.users.shiva.id}`)).user.delivery_email, server.users.shiva.email);
  });

  test('organization creation refuses a system bot\'s or a placeholder address for its owner', async () => {
    const cases: [string, string][] = [
      ['notification-bot@neworg.example.com', systemBot('notification-bot@neworg.example.com')],
      ['WELCOME-BOT@neworg.example.com', systemBot('WELCOME-BOT@neworg.example.com')],
      ['user1@parlance.invalid', reserved('user1@parlance.invalid')],
      ['owner@neworg.parlance.invalid', reserved('owner@neworg.parlance.invalid')],
      [`own${CYRILLIC_A}r@neworg.example.com`, invalid(`own${CYRILLIC_A}r@neworg.example.com`)],
    ];
    await withApp(server, async (app) => {
      for (const [i, [email, msg]] of cases.entries()) {
        await assert.rejects(
          doCreateRealm(app, { name: 'New Org', subdomain: `neworg${i}`, owner: { email, fullName: 'Owner', password: PASSWORD } }),
          (err: unknown) => err instanceof ApiError && err.status === 400 && err.message === msg,
          email,
        );
      }
    });
  });
});

describe('colliding identity: the command line', () => {
  const cli = (...args: string[]) => runCli(server.db, ...args);

  test('create-user and create-realm refuse every colliding form', async () => {
    const forms = addressForms(server.users.hamlet.email, server.users.desdemona.id).filter(([what]) => !what.includes('padded'));
    const commands = [
      ...forms.map(([, email]) => ['create-user', '--email', email, '--name', 'Collider', '--password', PASSWORD]),
      ['create-user', '--bot', '--email', `notification-bot@${host}`, '--name', 'CLI Impostor'],
      ['create-realm', '--name', 'CLI Org', '--subdomain', 'cliorg', '--owner-email', 'welcome-bot@cliorg.example.com', '--owner-name', 'Olga', '--owner-password', PASSWORD],
    ];
    // None writes; four at a time on a small machine.
    const runs: Awaited<ReturnType<typeof cli>>[] = [];
    for (let i = 0; i < commands.length; i += 4) runs.push(...(await Promise.all(commands.slice(i, i + 4).map((c) => cli(...c)))));
    const expected = [...forms.map(([, , msg]) => msg), systemBot(`notification-bot@${host}`), systemBot('welcome-bot@cliorg.example.com')];
    for (const [i, run] of runs.entries()) {
      assert.equal(run.code, 1, `${expected[i]}: ${run.stdout}${run.stderr}`);
      assert.ok(run.stderr.includes(expected[i]), `${expected[i]} not in ${run.stderr}`);
      assert.equal(run.stdout, '');
    }
  });
});
