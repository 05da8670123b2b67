import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamValue } from './helpers/client.js';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { setRealmSettings } from './helpers/direct-db.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
  const u = server.users;
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [u.hamlet.id, u.cordelia.id] });
});
after(() => server.close());

async function send(topic: string, content: string): Promise<number> {
  const res = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic, content });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

async function edit(id: number, params: Record<string, ParamValue>): Promise<void> {
  const res = await server.as('hamlet').patch(`/messages/${id}`, params);
  assert.equal(res.status, 200, res.text);
}

async function history(who: SeedName, id: number, params: Record<string, ParamValue> = {}) {
  return server.as(who).get(`/messages/${id}/history`, params);
}

test('snapshots, oldest first, with what each edit changed', async () => {
  const id = await send('orig', 'one');
  const sent = (await server.as('hamlet').get(`/messages/${id}`)).body.message.timestamp;
  assert.deepEqual((await history('hamlet', id)).body.message_history, [
    { content: 'one', rendered_content: '<p>one</p>', timestamp: sent, topic: 'orig', user_id: server.users.hamlet.id },
  ]);
  await edit(id, { content: 'two' });
  await edit(id, { topic: 'moved' });
  await edit(id, { content: 'three' });
  const res = await history('cordelia', id);
  assert.equal(res.status, 200, res.text);
  const h = res.body.message_history as Record<string, unknown>[];
  const hamlet = server.users.hamlet.id;
  assert.equal(h.length, 4);
  assert.deepEqual(h[0], { content: 'one', rendered_content: '<p>one</p>', timestamp: sent, topic: 'orig', user_id: hamlet });
  assert.deepEqual({ ...h[1], timestamp: 0 }, {
    content: 'two', rendered_content: '<p>two</p>', prev_content: 'one', prev_rendered_content: '<p>one</p>', topic: 'orig', user_id: hamlet, timestamp: 0,
    content_html_diff: '<div><p><span class="highlight_text_inserted">two</span><span class="highlight_text_deleted">one</span></p></div>',
  });
  assert.deepEqual({ ...h[2], timestamp: 0 }, { content: 'two', rendered_content: '<p>two</p>', topic: 'moved', prev_topic: 'orig', user_id: hamlet, timestamp: 0 });
  assert.deepEqual([h[3].content, h[3].prev_content, h[3].topic], ['three', 'two', 'moved']);
  assert.ok((h[3].timestamp as number) >= (h[1].timestamp as number));
});

test('content_html_diff marks changed words only', async () => {
  const id = await send('diff', 'the quick brown fox');
  await edit(id, { content: 'the slow brown fox' });
  const [, snap] = (await history('hamlet', id)).body.message_history;
  assert.equal(snap.content_html_diff, '<div><p>the <span class="highlight_text_inserted">slow </span><span class="highlight_text_deleted">quick </span>brown fox</p></div>');
});

test('the empty topic is shown by its display name unless allow_empty_topic_name', async () => {
  const id = await send('', 'x');
  await edit(id, { topic: 'named' });
  const shown = (await history('hamlet', id)).body.message_history;
  assert.deepEqual([shown[0].topic, shown[1].prev_topic, shown[1].topic], ['general chat', 'general chat', 'named']);
  const raw = (await history('hamlet', id, { allow_empty_topic_name: true })).body.message_history;
  assert.deepEqual([raw[0].topic, raw[1].prev_topic], ['', '']);
});

test('the organization may limit the history to moves, or turn it off', async () => {
  const id = await send('policy', 'one');
  await edit(id, { content: 'two' });
  await edit(id, { topic: 'policy moved' });
  await setRealmSettings(server, { message_edit_history_visibility_policy: 'moves' });
  try {
    const h = (await history('hamlet', id)).body.message_history;
    assert.deepEqual(h.map((s: any) => [s.topic, s.prev_topic, 'prev_content' in s]), [['policy', undefined, false], ['policy moved', 'policy', false]]);
    await setRealmSettings(server, { message_edit_history_visibility_policy: 'none' });
    for (const target of [id, 999999]) {
      const res = await history('hamlet', target);
      assert.equal(res.status, 400);
      assert.deepEqual([res.body.msg, res.body.code], ['Message edit history is disabled in this organization', 'BAD_REQUEST']);
    }
  } finally {
    await setRealmSettings(server, { message_edit_history_visibility_policy: undefined });
  }
});

test('messages carry edit_history as the policy allows: all of it, moves only (without contents), or none', async () => {
  const id = await send('carried', 'one');
  await edit(id, { content: 'two' });
  const contentOnly = await send('carried', 'three');
  await edit(contentOnly, { content: 'four' });
  await edit(id, { topic: 'carried on' });
  const shown = async (target: number) => {
    const single = (await server.as('cordelia').get(`/messages/${target}`)).body.message;
    const listed = (await server.as('cordelia').get('/messages', { anchor: target, num_before: 0, num_after: 0 })).body.messages[0];
    assert.deepEqual(single.edit_history, listed.edit_history);
    return single.edit_history as Record<string, unknown>[] | undefined;
  };
  const all = await shown(id);
  assert.deepEqual(all!.map((e) => [e.prev_topic, e.prev_content]), [['carried', undefined], [undefined, 'one']]);
  try {
    await setRealmSettings(server, { message_edit_history_visibility_policy: 'moves' });
    const moves = await shown(id);
    assert.deepEqual(moves, [{ user_id: server.users.hamlet.id, timestamp: all![0].timestamp, prev_topic: 'carried', topic: 'carried on' }]);
    assert.equal(await shown(contentOnly), undefined);
    await setRealmSettings(server, { message_edit_history_visibility_policy: 'none' });
    assert.equal(await shown(id), undefined);
  } finally {
    await setRealmSettings(server, { message_edit_history_visibility_policy: undefined });
  }
});

test('unknown and unreadable messages', async () => {
  const dm = (await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.iago.id], content: 'secret' })).body.id;
  for (const [who, id] of [['hamlet', 999999], ['cordelia', dm]] as const) {
    const res = await history(who, id);
    assert.equal(res.status, 400);
    assert.deepEqual([res.body.msg, res.body.code], ['Invalid message(s)', 'BAD_REQUEST']);
  }
  assert.equal((await history('iago', dm)).status, 200);
});
