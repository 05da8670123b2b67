import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('server answers /users/me for each seeded user', async () => {
  for (const name of ['desdemona', 'iago', 'hamlet', 'polonius', 'bot', 'lear'] as const) {
    const res = await server.as(name).get('/users/me');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.email, server.users[name].email);
  }
});
