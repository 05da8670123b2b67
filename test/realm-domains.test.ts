// The organization's allowed e-mail domains: GET/POST/PATCH/DELETE /realm/domains, realm_domains events and
// register block, and emails_restricted_to_domains where users get e-mail addresses.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';
import { takeUntil } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const domains = async (who: SeedName = 'hamlet') => assertSuccess(await server.as(who).get('/realm/domains')).domains;

test('owners add domains; everyone sees them and gets the events', async () => {
  const reg = assertSuccess(await server.as('polonius').post('/register', { fetch_event_types: ['realm_domains'] }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  assert.deepEqual(reg.realm_domains, []);
  assert.deepEqual(await domains(), []);

  const l = await Listeners.open(server, ['hamlet', 'polonius', 'bot', 'lear'], { event_types: ['realm_domains'] });
  const added = assertSuccess(await server.as('desdemona').post('/realm/domains', { domain: ' Example.COM ', allow_subdomains: false }));
  assert.ok(Number.isInteger(added.new_domain[0]));
  assert.equal(added.new_domain[1], 'example.com');
  const [event] = await takeUntil(l, 'hamlet', 'realm_domains');
  assert.deepEqual(event, { type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.com', allow_subdomains: false }, id: event.id });
  for (const name of ['polonius', 'bot'] as SeedName[]) assert.equal((await l.take(name, 'realm_domains')).length, 1);
  assert.deepEqual(await l.take('lear'), []);

  assertSuccess(await server.as('desdemona').post('/realm/domains', { domain: 'shakespeare.org', allow_subdomains: true }));
  assert.deepEqual(await domains('polonius'), [{ domain: 'example.com', allow_subdomains: false }, { domain: 'shakespeare.org', allow_subdomains: true }]);
  assert.deepEqual(assertSuccess(await server.as('cordelia').post('/register', { fetch_event_types: ['realm_domains'] })).realm_domains, await domains());
  assert.deepEqual(await domains('lear'), [], 'each organization has its own');
});

test('domains are validated, unique, and changed by owners only (require_realm_owner)', async () => {
  const bad: [string, string][] = [
    ['', "Domain can't be empty."],
    ['localhost', 'Domain must have at least one dot (.)'],
    ['.example.net', 'Domain cannot start or end with a dot (.)'],
    ['example.net.', 'Domain cannot start or end with a dot (.)'],
    ['a..example.net', "Consecutive '.' are not allowed."],
    ['-a.example.net', "Subdomains cannot start or end with a '-'."],
    ['a_b.example.net', "Domain can only have letters, numbers, '.' and '-'s."],
    [`${'a'.repeat(70)}.${'b'.repeat(70)}.${'c'.repeat(70)}.${'d'.repeat(70)}.com`, 'Domain is too long'],
  ];
  for (const [domain, problem] of bad) assertError(await server.as('desdemona').post('/realm/domains', { domain }), 400, 'BAD_REQUEST', `Invalid domain: ${problem}`);
  assertError(await server.as('desdemona').post('/realm/domains', { domain: 'EXAMPLE.com' }), 400, 'BAD_REQUEST', 'The domain example.com is already a part of your organization.');
  assertError(await server.as('desdemona').post('/realm/domains', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'domain' argument");
  for (const name of ['iago', 'shiva', 'hamlet', 'polonius', 'bot'] as SeedName[]) {
    const denied = (r: Awaited<ReturnType<ReturnType<TestServer['as']>['get']>>) => assertError(r, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    denied(await server.as(name).post('/realm/domains', { domain: `${name}.net` }));
    denied(await server.as(name).patch('/realm/domains/example.com', { allow_subdomains: true }));
    denied(await server.as(name).delete('/realm/domains/example.com'));
  }
  const l = await Listeners.open(server, ['cordelia'], { event_types: ['realm_domains'] });
  assertSuccess(await server.as('desdemona').patch('/realm/domains/example.com', { allow_subdomains: true }));
  const [event] = await takeUntil(l, 'cordelia', 'realm_domains');
  assert.deepEqual(event.op, 'change');
  assert.deepEqual(event.realm_domain, { domain: 'example.com', allow_subdomains: true });
  assertError(await server.as('desdemona').patch('/realm/domains/nope.example', { allow_subdomains: true }), 400, 'BAD_REQUEST', 'No entry found for domain nope.example.');
  assertError(await server.as('desdemona').patch('/realm/domains/example.com', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'allow_subdomains' argument");
  assertError(await server.as('desdemona').delete('/realm/domains/nope.example'), 400, 'BAD_REQUEST', 'No entry found for domain nope.example.');
  assertSuccess(await server.as('desdemona').patch('/realm/domains/example.com', { allow_subdomains: false }));
});

test('emails_restricted_to_domains limits new users and new addresses, not bots', async () => {
  assertSuccess(await server.as('desdemona').patch('/realm', { emails_restricted_to_domains: true }));
  const create = (email: string) => server.as('iago').post('/users', { email, password: 'secret123', full_name: 'Newcomer' });
  assertError(await create('someone@elsewhere.net'), 400, 'BAD_REQUEST', "Email 'someone@elsewhere.net' not allowed in this organization");
  assertError(await create('someone@sub.example.com'), 400, 'BAD_REQUEST', "Email 'someone@sub.example.com' not allowed in this organization");
  assertError(await create('some+one@example.com'), 400, 'BAD_REQUEST', 'Email addresses containing + are not allowed.');
  assertSuccess(await create('someone@EXAMPLE.com'));
  assertSuccess(await create('someone@deep.sub.shakespeare.org')); // a subdomain of a domain that allows them
  assertSuccess(await create('someone@shakespeare.org'));
  // A user's new address is held to the same rule.
  assertError(await server.as('hamlet').patch('/settings', { email: 'hamlet@elsewhere.net' }), 400, 'BAD_REQUEST', "Email 'hamlet@elsewhere.net' not allowed in this organization");
  // Bots take the organization's host as their domain, whatever the list says.
  assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Allowed Bot', short_name: 'allowed' }));
});

test('removing the last domain lifts the restriction', async () => {
  const l = await Listeners.open(server, ['hamlet'], { event_types: ['realm_domains', 'realm'] });
  assertSuccess(await server.as('desdemona').delete('/realm/domains/example.com'));
  let events = await takeUntil(l, 'hamlet', 'realm_domains');
  assert.deepEqual(events.map((e) => [e.op, e.domain]), [['remove', 'example.com']]);
  assert.equal(assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).realm_emails_restricted_to_domains, true);

  assertSuccess(await server.as('desdemona').delete('/realm/domains/shakespeare.org'));
  events = await takeUntil(l, 'hamlet', '', (e) => e.type === 'realm_domains');
  assert.deepEqual(events.map((e) => e.type === 'realm' ? [e.op, e.property, e.value] : [e.op, e.domain]),
    [['update', 'emails_restricted_to_domains', false], ['remove', 'shakespeare.org']]);
  assert.deepEqual(await domains(), []);
  assert.equal(assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).realm_emails_restricted_to_domains, false);
  assertSuccess(await server.as('iago').post('/users', { email: 'anyone@elsewhere.net', password: 'secret123', full_name: 'Anyone' }));
});
