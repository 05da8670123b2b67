// Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{id}, register's realm_playgrounds and the
// realm_playgrounds event.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateEvent } from './helpers/openapi-events.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('administrators add and remove playgrounds; everyone is told', async () => {
  const l = await Listeners.open(server, ['hamlet']);
  const added = assertSuccess(await server.as('iago').post('/realm/playgrounds', { name: ' Python playground ', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' }));
  assertMatchesSchema('/realm/playgrounds', 'post', added);
  const [event] = await l.waitFor('hamlet', 'realm_playgrounds');
  assert.deepEqual(validateEvent(event), []);
  assert.deepEqual(event.realm_playgrounds, [{ id: added.id, name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' }]);
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['realm_playgrounds']) }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  assert.deepEqual(reg.realm_playgrounds, event.realm_playgrounds);

  const cases: [Record<string, string>, string][] = [
    [{ name: 'Python playground', pygments_language: 'Python', url_template: 'https://other.example.com?code={code}' }, 'Realm playground with this Realm, Pygments language and Name already exists.'],
    [{ name: 'Bad', pygments_language: 'py$thon', url_template: 'https://x.example.com/{code}' }, 'Invalid characters in pygments language'],
    [{ name: 'Bad', pygments_language: 'Python', url_template: 'https://x.example.com/{program}' }, 'Missing the required variable "code" in the URL template'],
    [{ name: 'Bad', pygments_language: 'Python', url_template: 'https://x.example.com/{code}/{lang}' }, '"code" should be the only variable present in the URL template'],
    [{ name: 'Bad', pygments_language: 'Python', url_template: 'javascript:alert({code})' }, 'Invalid URL template.'],
    [{ name: '', pygments_language: 'Python', url_template: 'https://x.example.com/{code}' }, 'Name cannot be blank.'],
  ];
  for (const [params, msg] of cases) assertError(await server.as('iago').post('/realm/playgrounds', params), 400, 'BAD_REQUEST', msg);
  assertError(await server.as('hamlet').post('/realm/playgrounds', { name: 'Mine', pygments_language: 'C', url_template: 'https://c.example.com/{code}' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');

  assertSuccess(await server.as('iago').delete(`/realm/playgrounds/${added.id}`));
  assert.deepEqual((await l.waitFor('hamlet', 'realm_playgrounds'))[0].realm_playgrounds, []);
  assertError(await server.as('iago').delete(`/realm/playgrounds/${added.id}`), 400, 'BAD_REQUEST', 'Invalid playground');
});
