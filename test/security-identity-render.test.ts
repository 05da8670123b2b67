// What the server renders must not reveal another identity: `#**channel**` links (with a topic, with a message id,
// and when re-rendered on edit) to a channel the sender cannot see stay text, exactly as for a channel that does
// not exist; and user text quoted in a bot's notice stays inside its quote, whatever fences it holds.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { channelName, createChannel, sendToChannel, withApp } from './helpers/messages.js';
import { setRealmSettings } from './helpers/direct-db.js';
import { findRealmBySubdomain, updateRealm } from '../src/store/realms.js';

let server: TestServer;
let secret: number; // private: iago only
let secretName: string;
let square: number; // public: everyone talks here
before(async () => {
  server = await startTestServer();
  secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  secretName = await channelName(server, secret);
  square = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia', 'polonius']);
});
after(() => server?.close());

const rendered = async (who: SeedName, id: number) => assertSuccess(await server.as(who).get(`/messages/${id}`)).message.content as string;
const MISSING = 'No Such Channel Anywhere';
// The quote blocks of rendered HTML, however they are drawn (a blockquote, or a code block of language quote).
const quotes = (html: string) => [...html.matchAll(/<blockquote>([\s\S]*?)<\/blockquote>|<pre><code class="language-quote">([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1] ?? m[2]);
const links = (name: string) => [`#**${name}**`, `#**${name}>plans**`, `#**${name}>plans@12345**`];

describe('channel links', () => {
  test('a link to a private channel the sender cannot see renders like a link to no channel', async () => {
    for (const [i, link] of links(secretName).entries()) {
      const id = await sendToChannel(server, 'hamlet', square, 'links', link);
      const control = await sendToChannel(server, 'hamlet', square, 'links', links(MISSING)[i]);
      const html = await rendered('cordelia', id);
      assert.doesNotMatch(html, new RegExp(`data-stream-id="${secret}"`), html);
      assert.equal(html, (await rendered('cordelia', control)).split(MISSING).join(secretName), link);
    }
  });

  test('the same links by someone who can see the channel are links', async () => {
    for (const link of links(secretName)) {
      const id = await sendToChannel(server, 'iago', square, 'links', link);
      // Channel and topic links carry the channel's id; a message link (…@id) names it in its URL, as the reference's.
      assert.match(await rendered('hamlet', id), new RegExp(`data-stream-id="${secret}"|href="/#narrow/channel/${secret}-`), link);
    }
  });

  test('a guest\'s link to a public channel he is not subscribed to stays text', async () => {
    const other = await createChannel(server, 'iago', ['iago']);
    const id = await sendToChannel(server, 'polonius', square, 'links', `#**${await channelName(server, other)}**`);
    assert.doesNotMatch(await rendered('iago', id), /data-stream-id/);
  });

  test('editing a message re-renders with the sender\'s access', async () => {
    const id = await sendToChannel(server, 'hamlet', square, 'links', 'nothing yet');
    for (const link of links(secretName)) {
      assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { content: link }));
      assert.doesNotMatch(await rendered('cordelia', id), new RegExp(`data-stream-id="${secret}"`), link);
    }
  });
});

describe('user text quoted in notices', () => {
  test('a report\'s description cannot close its quote', async () => {
    const moderation = await createChannel(server, 'iago', ['iago'], { invite_only: true });
    await withApp(server, async (app) => {
      const realm = (await findRealmBySubdomain(app.db, ''))!;
      await updateRealm(app.db, realm.id, { settings: { ...realm.settings, moderation_request_channel_id: moderation } });
    });
    const id = await sendToChannel(server, 'hamlet', square, 'quarrel', 'rude');
    const description = 'Look:\n```\n**outside** [link](https://example.com/x)\n````\nend';
    assertSuccess(await server.as('cordelia').post(`/messages/${id}/report`, { report_type: 'other', description }));
    const [notice] = assertSuccess(await server.as('iago').get('/messages', {
      anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: moderation }],
    })).messages;
    assert.ok(notice.content.includes(`\`\`\`\`\`quote\n**Other reason**. ${description}\n\`\`\`\`\`\n`), notice.content);
    const html = await rendered('iago', notice.id);
    const [quote = ''] = quotes(html);
    assert.match(quote, /outside/, html);
    assert.match(quote, /end/, html);
  });

  test('a channel description cannot close the quote of a channel-events notice', async () => {
    await setRealmSettings(server, { send_channel_events_messages: true });
    try {
      const id = await createChannel(server, 'iago', ['iago']);
      assertSuccess(await server.as('iago').patch(`/streams/${id}`, { description: '``````' }));
      const [notice] = assertSuccess(await server.as('iago').get('/messages', {
        anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: id }],
      })).messages;
      assert.ok(notice.content.endsWith('**New description:**\n``````` quote\n``````\n```````'), notice.content);
      const html = await rendered('iago', notice.id);
      assert.equal(quotes(html).length, 2, html);
      // Whatever the description holds stays inside its quote: nothing but the quotes holds a code block.
      const outside = html.replace(/<blockquote>[\s\S]*?<\/blockquote>/g, '');
      assert.doesNotMatch(outside, /<pre>|codehilite/, `a code block outside the quotes: ${html}`);
    } finally {
      await setRealmSettings(server, { send_channel_events_messages: undefined });
    }
  });
});
