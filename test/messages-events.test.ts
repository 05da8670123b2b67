// Message events: who receives them, with which flags, and in which format for each queue's options.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { createChannel, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let verona: number; // public: hamlet, cordelia, iago
let secret: number; // private: iago, shiva
const EVERYONE: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];

before(async () => {
  server = await startTestServer();
  verona = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
  secret = await createChannel(server, 'iago', ['iago', 'shiva'], { invite_only: true });
});
after(() => server.close());

// `sender` is sure to receive the message: waiting for it to arrive there means it has arrived everywhere.
async function received(l: Listeners, id: number, sender: SeedName): Promise<Map<SeedName, Record<string, any>>> {
  const out = new Map<SeedName, Record<string, any>>();
  const first = await takeUntil(l, sender, 'message', (e) => e.message.id === id);
  for (const who of EVERYONE) {
    const events = (who === sender ? first : await l.take(who, 'message')).filter((e) => e.message.id === id);
    assert.ok(events.length <= 1, `${who} got ${events.length} events`);
    if (events.length) out.set(who, events[0]);
  }
  return out;
}

describe('recipients', () => {
  test('a channel message reaches exactly its subscribers, each with their flags', async () => {
    const l = await Listeners.open(server, EVERYONE, { event_types: ['message'] });
    const id = await sendToChannel(server, 'hamlet', verona, 'events', 'hi @**Cordelia, Lear\'s daughter**');
    const got = await received(l, id, 'hamlet');
    assert.deepEqual([...got.keys()].sort(), ['cordelia', 'hamlet', 'iago']);
    assert.deepEqual(got.get('hamlet')!.flags, ['read']);
    assert.deepEqual(got.get('cordelia')!.flags, ['mentioned']);
    assert.deepEqual(got.get('iago')!.flags, []);
    const m = got.get('iago')!.message;
    assert.equal(m.id, id);
    assert.equal(m.type, 'stream');
    assert.equal(m.stream_id, verona);
    assert.equal(m.subject, 'events');
    // register's apply_markdown defaults to false.
    assert.equal(m.content_type, 'text/x-markdown');
    assert.ok(!('flags' in m), 'flags are on the event, not the message');
  });

  test('direct messages reach their participants only; a private channel message its subscribers only', async () => {
    const l = await Listeners.open(server, EVERYONE, { event_types: ['message'] });
    const dm = await sendDm(server, 'hamlet', ['cordelia', 'polonius'], 'group chat');
    assert.deepEqual([...(await received(l, dm, 'hamlet')).keys()].sort(), ['cordelia', 'hamlet', 'polonius']);
    const self = await sendDm(server, 'hamlet', ['hamlet'], 'note to self');
    assert.deepEqual([...(await received(l, self, 'hamlet')).keys()], ['hamlet']);
    const priv = await sendToChannel(server, 'shiva', secret, 't', 'private');
    assert.deepEqual([...(await received(l, priv, 'shiva')).keys()].sort(), ['iago', 'shiva']);
  });

  test('a sender posting to a public channel without being subscribed gets the message as historical', async () => {
    const l = await Listeners.open(server, ['desdemona'], { event_types: ['message'] });
    const id = await sendToChannel(server, 'desdemona', verona, 'drive-by', 'hello');
    const [e] = await takeUntil(l, 'desdemona', 'message');
    assert.equal(e.message.id, id);
    assert.deepEqual(e.flags, ['read', 'historical']);
  });
});

describe('per-queue options', () => {
  test('local_message_id is echoed to the sending queue only', async () => {
    const first = await Listeners.open(server, ['hamlet'], { event_types: ['message'] });
    const second = await Listeners.open(server, ['hamlet', 'cordelia'], { event_types: ['message'] });
    const reg = await server.as('hamlet').post('/register', { event_types: ['message'], fetch_event_types: [] });
    const queueId = reg.body.queue_id;
    const id = await sendToChannel(server, 'hamlet', verona, 'echo', 'local echo', { queue_id: queueId, local_id: '100.01' });
    const [other] = await takeUntil(first, 'hamlet', 'message');
    const mine = await server.as('hamlet').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    const event = mine.body.events.find((e: Record<string, any>) => e.type === 'message');
    assert.equal(other.message.id, id);
    assert.ok(!('local_message_id' in other));
    assert.equal(event.message.id, id);
    assert.equal(event.local_message_id, '100.01');
    for (const [l, who] of [[second, 'hamlet'], [second, 'cordelia']] as const) {
      const [other] = await l.take(who, 'message');
      assert.equal(other.message.id, id);
      assert.ok(!('local_message_id' in other), who);
    }
  });

  test('apply_markdown=false gets the Markdown source; avatars drawn by the server whatever client_gravatar says', async () => {
    const raw = await Listeners.open(server, ['cordelia'], { event_types: ['message'], apply_markdown: false, client_gravatar: true });
    const html = await Listeners.open(server, ['cordelia'], { event_types: ['message'], apply_markdown: true, client_gravatar: false });
    await sendToChannel(server, 'hamlet', verona, 'formats', '**bold** text');
    const [r] = await takeUntil(raw, 'cordelia', 'message');
    assert.equal(r.message.content, '**bold** text');
    assert.equal(r.message.content_type, 'text/x-markdown');
    assert.match(r.message.avatar_url, /^\/user_avatars\//);
    const [h] = await html.take('cordelia', 'message');
    assert.equal(h.message.content, '<p><strong>bold</strong> text</p>');
    assert.equal(h.message.content_type, 'text/html');
    assert.equal(h.message.avatar_url, r.message.avatar_url);
  });

  test('empty topics are shown as the display name unless the queue has empty_topic_name', async () => {
    const old = await Listeners.open(server, ['cordelia'], { event_types: ['message'] });
    const modern = await Listeners.open(server, ['cordelia'], { event_types: ['message'], client_capabilities: { empty_topic_name: true } });
    await sendToChannel(server, 'hamlet', verona, '', 'general');
    assert.equal((await takeUntil(old, 'cordelia', 'message'))[0].message.subject, 'general chat');
    assert.equal((await modern.take('cordelia', 'message'))[0].message.subject, '');
  });

  test('all_public_streams queues get public channel messages they did not receive, with no flags', async () => {
    const l = await Listeners.open(server, ['desdemona', 'bot'], { event_types: ['message'], all_public_streams: true });
    const id = await sendToChannel(server, 'hamlet', verona, 'firehose', 'for everyone');
    for (const who of ['desdemona', 'bot'] as const) {
      const events = await takeUntil(l, who, 'message');
      assert.equal(events.length, 1, who);
      assert.equal(events[0].message.id, id);
      assert.deepEqual(events[0].flags, []);
    }
    await sendToChannel(server, 'shiva', secret, 't', 'private');
    // A later public message marks the moment the private one would have arrived.
    const marker = await sendToChannel(server, 'hamlet', verona, 'firehose', 'marker');
    assert.deepEqual((await takeUntil(l, 'desdemona', 'message', (e) => e.message.id === marker)).map((e) => e.message.id), [marker]);
  });

  test('narrowed queues receive only the matching messages', async () => {
    const byChannel = await Listeners.open(server, ['cordelia'], { event_types: ['message'], narrow: [['stream', String(verona)]] });
    const dms = await Listeners.open(server, ['cordelia'], { event_types: ['message'], narrow: [['is', 'dm']] });
    const inChannel = await sendToChannel(server, 'hamlet', verona, 'narrowed', 'channel message');
    const dm = await sendDm(server, 'hamlet', ['cordelia'], 'direct message');
    assert.deepEqual((await takeUntil(dms, 'cordelia', 'message')).map((e) => e.message.id), [dm]);
    assert.deepEqual((await byChannel.take('cordelia', 'message')).map((e) => e.message.id), [inChannel]);
  });
});
