// Link embeds (Open Graph): fetched only when the organization enables them, only through the guarded fetcher
// (so a loopback site is reached only when listed in PARLANCE_FETCH_ALLOWED_HOSTS), after the send, and
// shown by an update_message event with rendering_only, as the reference does.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners, eventually } from './helpers/events.js';

describe('link embeds', () => {
  let site: http.Server;
  let siteUrl = '';
  let hits = 0;
  let allowed: TestServer;
  let guarded: TestServer;
  before(async () => {
    site = http.createServer((req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Fallback</title><meta property="og:title" content="Elsinore &amp; more">'
        + '<meta property="og:description" content="A castle."><meta property="og:image" content="/castle.png"></head><body>x</body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    allowed = await startTestServer({ env: { PARLANCE_FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
    guarded = await startTestServer();
    for (const s of [allowed, guarded]) await s.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Links' }] });
  });
  after(async () => {
    site.close();
    await allowed.close();
    await guarded.close();
  });

  const send = async (server: TestServer, content: string) => {
    const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Links', topic: 'embeds', content });
    assert.equal(sent.status, 200, sent.text);
    return sent.body.id as number;
  };

  test('nothing is fetched while the organization has embeds off (the default)', async () => {
    hits = 0;
    const id = await send(allowed, `Read ${siteUrl}/page`);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(hits, 0);
    assert.equal((await allowed.as('hamlet').get(`/messages/${id}`)).body.message.content, `<p>Read <a href="${siteUrl}/page">${siteUrl}/page</a></p>`);
  });

  test('with embeds on, the page is fetched after the send and the message updated', async () => {
    assert.equal((await allowed.as('iago').patch('/realm', { inline_url_embed_preview: true })).status, 200);
    const listeners = await Listeners.open(allowed, ['hamlet'], { event_types: ['update_message'] });
    const id = await send(allowed, `Read ${siteUrl}/page`);
    const [event] = await listeners.waitFor('hamlet', 'update_message');
    const image = `/thumbnail?url=${encodeURIComponent(`${siteUrl}/castle.png`)}&amp;size=thumbnail`;
    const expected = `<p>Read <a href="${siteUrl}/page">${siteUrl}/page</a></p>\n`
      + `<div class="message_embed"><a class="message_embed_image" href="${siteUrl}/page" style="background-image: url(&quot;${image}&quot;)"></a>`
      + `<div class="data-container"><div class="message_embed_title"><a href="${siteUrl}/page" title="Elsinore &amp; more">Elsinore &amp; more</a></div>`
      + '<div class="message_embed_description">A castle.</div></div></div>';
    assert.deepEqual([event.message_id, event.rendering_only, event.user_id, event.rendered_content], [id, true, null, expected]);
    assert.equal((await allowed.as('hamlet').get(`/messages/${id}`)).body.message.content, expected);
  });

  test('an edit that adds a link gets its embed too', async () => {
    const id = await send(allowed, 'no link yet');
    const listeners = await Listeners.open(allowed, ['hamlet'], { event_types: ['update_message'] });
    assert.equal((await allowed.as('hamlet').patch(`/messages/${id}`, { content: `now ${siteUrl}/page` })).status, 200);
    const embedded = await eventually(async () => (await listeners.take('hamlet', 'update_message')).find((e) => e.rendering_only));
    assert.match(embedded.rendered_content, /<div class="message_embed">/);
    assert.match((await allowed.as('hamlet').get(`/messages/${id}`)).body.message.content, /<div class="message_embed">/);
  });

  test('a loopback site is never fetched by a server that does not list it', async () => {
    assert.equal((await guarded.as('iago').patch('/realm', { inline_url_embed_preview: true })).status, 200);
    hits = 0;
    const id = await send(guarded, `Read ${siteUrl}/page`);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(hits, 0);
    await eventually(async () => ((await guarded.as('hamlet').get(`/messages/${id}`)).body.message.content.includes('message_embed') ? undefined : true), 1000);
  });
});
