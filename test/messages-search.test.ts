// The `search` operator over the full-text index: stemming, every word required, quoted phrases, stop words,
// access, highlighting in GET /messages and matches_narrow, and keeping the index in step with edits.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { createChannel, fetchMessages, ids, sendDm, sendToChannel, withApp } from './helpers/messages.js';
import { indexMessageText } from '../src/store/search.js';

let server: TestServer;
let den: number; // public: hamlet, cordelia
const m = {} as Record<'fox' | 'dogs' | 'topic' | 'fish' | 'dm' | 'markup', number>;

before(async () => {
  server = await startTestServer();
  den = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  m.fox = await sendToChannel(server, 'hamlet', den, 'animals', 'The quick brown fox jumps over the lazy dog');
  m.dogs = await sendToChannel(server, 'cordelia', den, 'animals', 'Running dogs chased the cats');
  m.topic = await sendToChannel(server, 'hamlet', den, 'Database migrations', 'see the plan');
  m.fish = await sendToChannel(server, 'cordelia', den, 'food', 'fish & chips <tonight>');
  m.dm = await sendDm(server, 'hamlet', ['cordelia'], 'a secret fox');
  m.markup = await sendToChannel(server, 'hamlet', den, 'markup', 'the **fox** said `fox` in [a fox link](https://example.com/a)');
});
after(() => server.close());

async function search(operand: string, who: SeedName = 'hamlet', extra: unknown[] = []): Promise<number[]> {
  return ids(await fetchMessages(server, who, { narrow: [...extra, { operator: 'search', operand }] }));
}

describe('matching', () => {
  test('words are stemmed and all required; case does not matter', async () => {
    assert.deepEqual(await search('fox'), [m.fox, m.dm, m.markup]);
    assert.deepEqual(await search('FOX jumps'), [m.fox]);
    assert.deepEqual(await search('run'), [m.dogs]);
    assert.deepEqual(await search('dog'), [m.fox, m.dogs]);
    assert.deepEqual(await search('chasing cat'), [m.dogs]);
    assert.deepEqual(await search('fox elephant'), []);
    assert.deepEqual(await search('migration'), [m.topic], 'topics are searched too');
  });

  test('quoted phrases must appear as written; stop words are ignored', async () => {
    assert.deepEqual(await search('"brown fox"'), [m.fox]);
    assert.deepEqual(await search('"fox brown"'), []);
    assert.deepEqual(await search('"quick brown" lazy'), [m.fox]);
    assert.deepEqual(await search('the'), []);
    assert.deepEqual(await search('the cats'), [m.dogs]);
  });

  test('negated, combined with other terms, and only within what the caller may read', async () => {
    const negated = ids(await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'channel', operand: den }, { operator: 'search', operand: 'fox', negated: true }] }));
    assert.deepEqual(negated, [m.dogs, m.topic, m.fish]);
    assert.deepEqual(await search('fox', 'hamlet', [{ operator: 'is', operand: 'dm' }]), [m.dm]);
    // A public channel's history is searched when narrowed to it; a direct message only by its participants.
    assert.deepEqual(await search('fox', 'shiva', [{ operator: 'channel', operand: den }]), [m.fox, m.markup]);
    assert.deepEqual(await search('secret', 'shiva'), []);
    assert.deepEqual(await search('secret', 'cordelia'), [m.dm]);
  });
});

describe('highlighting', () => {
  test('GET /messages adds match_content and match_subject to search results only', async () => {
    const body = await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'search', operand: 'running' }] });
    assert.deepEqual(validateResponse('GET /messages', body), []);
    const [found] = body.messages;
    assert.equal(found.match_content, '<p><span class="highlight">Running</span> dogs chased the cats</p>');
    assert.equal(found.match_subject, 'animals');
    assert.equal(found.content, '<p>Running dogs chased the cats</p>');
    const topic = (await fetchMessages(server, 'hamlet', { narrow: [['search', 'migrations plan']] })).messages[0];
    assert.equal(topic.match_subject, 'Database <span class="highlight">migrations</span>');
    assert.equal(topic.match_content, '<p>see the <span class="highlight">plan</span></p>');
    const plain = await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'channel', operand: den }] });
    assert.ok(plain.messages.every((x: Record<string, unknown>) => !('match_content' in x) && !('match_subject' in x)));
    const negated = await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'search', operand: 'fox', negated: true }] });
    assert.ok(negated.messages.every((x: Record<string, unknown>) => !('match_content' in x)));
  });

  test('markup, entities and attributes are left alone; every matching word is marked', async () => {
    const markup = (await fetchMessages(server, 'hamlet', { narrow: [['search', 'fox']] })).messages.find((x: { id: number }) => x.id === m.markup);
    const hl = '<span class="highlight">fox</span>';
    assert.equal(
      markup.match_content,
      `<p>the <strong>${hl}</strong> said <code>${hl}</code> in <a href="https://example.com/a">a ${hl} link</a></p>`,
    );
    const fish = (await fetchMessages(server, 'hamlet', { narrow: [['search', 'chips tonight']] })).messages[0];
    assert.equal(fish.match_content, '<p>fish &amp; <span class="highlight">chips</span> &lt;<span class="highlight">tonight</span>&gt;</p>');
    assert.deepEqual(await search('amp'), []);
    assert.deepEqual(await search('lt'), []);
  });

  test('matches_narrow highlights search matches and escapes topics', async () => {
    const tricky = await sendToChannel(server, 'hamlet', den, 'fox & "friends"', 'nothing here');
    const res = await server.as('hamlet').get('/messages/matches_narrow', { msg_ids: [m.fox, m.dogs, tricky], narrow: [{ operator: 'search', operand: 'fox' }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(validateResponse('GET /messages/matches_narrow', res.body), []);
    assert.deepEqual(Object.keys(res.body.messages).map(Number), [m.fox, tricky]);
    assert.equal(res.body.messages[m.fox].match_content, '<p>The quick brown <span class="highlight">fox</span> jumps over the lazy dog</p>');
    assert.equal(res.body.messages[tricky].match_subject, '<span class="highlight">fox</span> &amp; &quot;friends&quot;');
    assert.equal(res.body.messages[tricky].match_content, '<p>nothing here</p>');
  });
});

describe('the index', () => {
  test('indexMessageText keeps search in step with an edited topic and content', async () => {
    const id = await sendToChannel(server, 'hamlet', den, 'before', 'original wording');
    assert.deepEqual(await search('original'), [id]);
    await withApp(server, (app) =>
      app.db.transaction().execute(async (tx) => {
        await sql`update messages set topic = ${'after'}, topic_key = ${'after'}, content = ${'zebra crossing'} where id = ${id}`.execute(tx);
        await indexMessageText(tx, id, 'after', 'zebra crossing');
      }),
    );
    assert.deepEqual(await search('original'), []);
    assert.deepEqual(await search('before'), []);
    assert.deepEqual(await search('zebra after'), [id]);
  });
});

describe('the index through the API', () => {
  test('an edited message, a renamed topic and a deleted message are found as they now are', async () => {
    const id = await sendToChannel(server, 'hamlet', den, 'walrus plans', 'penguin parade');
    const other = await sendToChannel(server, 'hamlet', den, 'walrus plans', 'second penguin');
    const edit = (params: Record<string, string>) => server.as('hamlet').patch(`/messages/${id}`, params);
    assert.equal((await edit({ content: 'otter parade' })).status, 200);
    assert.deepEqual(await search('penguin'), [other]);
    assert.deepEqual(await search('otter'), [id]);
    assert.equal((await edit({ topic: 'narwhal plans', propagate_mode: 'change_all', send_notification_to_new_thread: 'false' })).status, 200);
    assert.deepEqual(await search('walrus'), []);
    assert.deepEqual(await search('narwhal'), [id, other]);
    assert.equal((await server.as('iago').delete(`/messages/${other}`)).status, 200);
    assert.deepEqual(await search('narwhal'), [id]);
    await withApp(server, async (app) => {
      // On PostgreSQL the stored documents follow the messages (on SQLite, the FTS table is written by the store).
      if (app.dialect !== 'postgres') return;
      const rows = await sql<{ id: number }>`select id from message_search where id in (${id}, ${other})`.execute(app.db);
      assert.deepEqual(rows.rows.map((r) => r.id), [id]);
    });
  });
});
