// The reference server's own Markdown corpus (../shared/reference/markdown-cases.json) as our specification:
// every case is rendered by the server (POST /messages/render, which renders exactly as sending stores) and
// compared as a string with the reference's HTML. Its fixtures are recreated: the organization is reached at
// http://zulip.testserver (links into it become relative), inline image previews are on (the default), and
// the cases flagged `translate_emoticons` are rendered for a user who turned that setting on.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, ROOT, type TestServer } from './helpers/server.js';
import { renderMessage } from '../src/markdown/message.js';
import { textContent } from '../src/markdown/text-content.js';

interface RegularCase { name: string; input: string; expected_output: string; translate_emoticons?: boolean; text_content?: string }
const corpus = JSON.parse(fs.readFileSync(path.join(ROOT, '../shared/reference/markdown-cases.json'), 'utf8')) as {
  regular_tests: RegularCase[];
  linkify_tests: [string, string, string][];
};

// Cases rendered differently on purpose, with the reason. Empty: every case passes.
const DEVIATIONS: Record<string, string> = {};

// Cases that do not apply to a server: a message is never empty (sending refuses it), so the empty case is
// checked on the renderer itself.
const NOT_SENDABLE = new Set(['empty']);

// The linkify cases' expected link, built as the reference's test builds it.
function linkifyExpected([, reference, url]: [string, string, string]): string {
  if (!reference.includes('%s')) return reference;
  const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
  return reference.replace('%s', `<a href="${href}">${url}</a>`);
}

describe('the reference Markdown corpus', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { PARLANCE_EXTERNAL_URL: 'http://zulip.testserver' } });
    const set = await server.as('cordelia').patch('/settings', { translate_emoticons: true });
    assert.equal(set.status, 200, set.text);
  });
  after(() => server.close());

  const render = async (c: RegularCase) => {
    const res = await server.as(c.translate_emoticons ? 'cordelia' : 'hamlet').post('/messages/render', { content: c.input });
    assert.equal(res.status, 200, `${c.name}: ${res.text}`);
    return res.body.rendered as string;
  };

  test('every regular case renders exactly as the reference renders it (and its text_content), or is a listed deviation', async () => {
    const failures: string[] = [];
    let passed = 0;
    for (const c of corpus.regular_tests) {
      if (DEVIATIONS[c.name]) continue;
      const html = NOT_SENDABLE.has(c.name) ? renderMessage(c.input, { usersByName: new Map(), usersById: new Map(), groupsByName: new Map(), channelsByName: new Map() }).html : await render(c);
      if (html === c.expected_output) passed++;
      else failures.push(`${c.name}\n  expected ${JSON.stringify(c.expected_output)}\n  got      ${JSON.stringify(html)}`);
      // The plain-text form (what the reference puts in notifications), where the case gives it.
      if (c.text_content !== undefined && textContent(html) !== c.text_content) {
        failures.push(`${c.name} (text)\n  expected ${JSON.stringify(c.text_content)}\n  got      ${JSON.stringify(textContent(html))}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(passed + Object.keys(DEVIATIONS).length, corpus.regular_tests.length);
  });

  test('every linkify case links exactly the reference’s addresses', async () => {
    const failures: string[] = [];
    for (const c of corpus.linkify_tests) {
      const res = await server.as('hamlet').post('/messages/render', { content: c[0] });
      const expected = linkifyExpected(c);
      if (res.body.rendered !== expected) failures.push(`${JSON.stringify(c[0])}\n  expected ${expected}\n  got      ${res.body.rendered}`);
    }
    assert.deepEqual(failures, []);
  });

  test('a sent message stores what the render preview showed (code, math, time, spoiler, image, emoticon cases)', async () => {
    await server.as('cordelia').post('/users/me/subscriptions', { subscriptions: [{ name: 'Corpus' }] });
    const names = ['codeblock_hilite_python', 'tex_inline', 'tex_fenced_math', 'timestamp_timezone', 'spoilers_fenced_spoiler', 'inline_image', 'translate_emoticons', 'fragment_link'];
    for (const name of names) {
      const c = corpus.regular_tests.find((t) => t.name === name)!;
      const sent = await server.as('cordelia').post('/messages', { type: 'stream', to: 'Corpus', topic: name, content: c.input });
      assert.equal(sent.status, 200, sent.text);
      const stored = await server.as('cordelia').get(`/messages/${sent.body.id}`);
      assert.equal(stored.body.message.content, c.expected_output, name);
    }
  });
});
