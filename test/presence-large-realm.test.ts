// Past a number of users who would be told (the reference's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS, here
// PARLANCE_USER_LIMIT_FOR_PRESENCE_EVENTS, 100 by default), a user coming online sends no presence event: in an
// organization of 50,000 every ping that comes online would otherwise log an event for 50,000 users. Clients
// learn it from their own pings a minute later. Turning presence_enabled off or on is still announced, as the
// reference forces that update.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_USER_LIMIT_FOR_PRESENCE_EVENTS: '3' } });
});
after(() => server.close());

test('no presence event for coming online past the limit; invisibility still announced', async () => {
  const l = await Listeners.open(server, ['cordelia'], { event_types: JSON.stringify(['presence']) });
  assert.equal((await server.as('hamlet').post('/users/me/presence', { status: 'active' })).status, 200);
  assert.deepEqual(await l.take('cordelia', 'presence'), []);
  assert.equal((await server.as('hamlet').patch('/settings', { presence_enabled: false })).status, 200);
  const events = await l.waitFor('cordelia', 'presence');
  assert.equal(events.length, 1);
  assert.equal(events[0].user_id, server.users.hamlet.id);
});
