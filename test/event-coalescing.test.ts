// PARLANCE_EVENT_COALESCE_MS: events that arrive for a queue answered less than that long ago wait out the rest
// of the time, so that one answer carries them all; events already sent and not yet acknowledged are sent again
// at once, and a queue that was quiet is answered at once.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';

let server: TestServer;
let channel: number;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_EVENT_COALESCE_MS: '1500' } });
  channel = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia']);
});
after(() => server.close());

const send = async (content: string) => {
  const res = await server.as('hamlet').post('/messages', { type: 'stream', to: channel, topic: 'flood', content });
  assert.equal(res.status, 200, res.text);
  return res.body.id as number;
};

test('a flood reaches a queue in one answer; a quiet queue and a re-read are answered at once', async () => {
  const reg = await server.as('cordelia').post('/register', { event_types: ['message'], fetch_event_types: [] });
  const poll = (last: number) => server.as('cordelia').get('/events', { queue_id: reg.body.queue_id, last_event_id: last });

  // Quiet queue: the first message wakes the parked poll.
  const parked = poll(-1);
  const first = await send('one');
  const answer = await parked;
  assert.deepEqual(answer.body.events.map((e: any) => e.message.id), [first]);

  // Asking again without acknowledging gets the same event at once.
  const again = await poll(-1);
  assert.deepEqual(again.body.events.map((e: any) => e.message.id), [first]);

  // Two messages right after that answer: the next answer waits for the rest of the interval and has both.
  const last = answer.body.events[0].id;
  const next = poll(last);
  const second = await send('two');
  const third = await send('three');
  const both = await next;
  assert.deepEqual(both.body.events.map((e: any) => e.message.id), [second, third]);
});
