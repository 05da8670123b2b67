// POST /messages/render is what clients show before sending: it must be exactly what sending stores, with
// mentions, group mentions, channel, topic and message links, emoticons and relative links resolved as for
// the sender.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('render preview equals the stored message', () => {
  let server: TestServer;
  let channelId: number;
  before(async () => {
    server = await startTestServer();
    await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
    channelId = (await server.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
    const group = await server.as('hamlet').post('/user_groups/create', { name: 'Players', description: '', members: [server.users.hamlet.id] });
    assert.equal(group.status, 200, group.text);
    assert.equal((await server.as('cordelia').patch('/settings', { translate_emoticons: true })).status, 200);
  });
  after(() => server.close());

  test('mentions, group mentions, channel, topic and message links render in the preview as when sent', async () => {
    const content = '@**King Hamlet** @_**Iago** @*Players* @**all** #**Denmark** #**Denmark>lunch** #**Denmark>lunch@12** :) `code`';
    for (const who of ['hamlet', 'cordelia'] as const) {
      const preview = await server.as(who).post('/messages/render', { content });
      assert.equal(preview.status, 200, preview.text);
      const sent = await server.as(who).post('/messages', { type: 'stream', to: 'Denmark', topic: 'render', content });
      assert.equal(sent.status, 200, sent.text);
      const stored = (await server.as(who).get(`/messages/${sent.body.id}`)).body.message.content;
      assert.equal(preview.body.rendered, stored, who);
    }
    const html = (await server.as('cordelia').post('/messages/render', { content })).body.rendered as string;
    const { hamlet, iago } = server.users;
    const slug = `${channelId}-Denmark`;
    assert.equal(
      html,
      `<p><span class="user-mention" data-user-id="${hamlet.id}">@King Hamlet</span> <span class="user-mention silent" data-user-id="${iago.id}">Iago</span> `
        + `<span class="user-group-mention" data-user-group-id="${(await groupId(server, 'Players'))}">@Players</span> `
        + '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> '
        + `<a class="stream" data-stream-id="${channelId}" href="/#narrow/channel/${slug}">#Denmark</a> `
        + `<a class="stream-topic" data-stream-id="${channelId}" href="/#narrow/channel/${slug}/topic/lunch">#Denmark &gt; lunch</a> `
        + `<a class="message-link" href="/#narrow/channel/${slug}/topic/lunch/near/12">#Denmark &gt; lunch @ 💬</a> `
        + '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> <code>code</code></p>',
    );
  });

  test('the organization’s default code block language applies to fences that name none', async () => {
    const plain = (await server.as('hamlet').post('/messages/render', { content: '```\nx = 1\n```' })).body.rendered;
    assert.equal(plain, '<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>');
    assert.equal((await server.as('iago').patch('/realm', { default_code_block_language: 'python' })).status, 200);
    const python = (await server.as('hamlet').post('/messages/render', { content: '```\nx = 1\n```\n\n```text\nx = 1\n```' })).body.rendered;
    assert.equal(
      python,
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>\n'
        + '<div class="codehilite" data-code-language="Text only"><pre><span></span><code>x = 1\n</code></pre></div>',
    );
    assert.equal((await server.as('iago').patch('/realm', { default_code_block_language: '' })).status, 200);
  });

  test('mentions inside a quote are silent and notify no one', async () => {
    const sent = await server.as('cordelia').post('/messages', { type: 'stream', to: 'Denmark', topic: 'quotes', content: '> @**King Hamlet** said so\n\n@**Iago**' });
    assert.equal(sent.status, 200, sent.text);
    const { hamlet, iago } = server.users;
    const stored = (await server.as('hamlet').get(`/messages/${sent.body.id}`)).body.message;
    assert.equal(stored.content, `<blockquote>\n<p><span class="user-mention silent" data-user-id="${hamlet.id}">King Hamlet</span> said so</p>\n</blockquote>\n<p><span class="user-mention" data-user-id="${iago.id}">@Iago</span></p>`);
    assert.ok(!stored.flags.includes('mentioned'));
  });

  test('links into the organization are stored relative, in the preview as when sent', async () => {
    const base = server.url.replace(/\/$/, '');
    const content = `[narrow](${base}/#narrow/channel/${channelId}-Denmark) and ${base}/user_uploads/1/ab/x/file.txt`;
    const preview = (await server.as('hamlet').post('/messages/render', { content })).body.rendered;
    assert.equal(preview, `<p><a href="#narrow/channel/${channelId}-Denmark">narrow</a> and <a href="user_uploads/1/ab/x/file.txt">${base}/user_uploads/1/ab/x/file.txt</a></p>`);
  });
});

async function groupId(server: TestServer, name: string): Promise<number> {
  const groups = (await server.as('hamlet').get('/user_groups')).body.user_groups as { id: number; name: string }[];
  return groups.find((g) => g.name === name)!.id;
}
