import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { renderMessage, type RenderContext } from '../src/markdown/message.js';
import { compileLinkifiers } from '../src/markdown/linkifiers.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const context = (extra: Partial<RenderContext> = {}): RenderContext => ({
  usersByName: new Map([['king hamlet', [{ id: 10, fullName: 'King Hamlet' }]]]),
  usersById: new Map([[10, { id: 10, fullName: 'King Hamlet' }]]),
  groupsByName: new Map([['support', { id: 20, name: 'support' }]]),
  channelsByName: new Map([['denmark', { id: 30, name: 'Denmark' }]]),
  realmEmoji: new Map([['green_tick', { id: 7, sourceUrl: '/user_avatars/1/emoji/images/0123456789abcdef.png' }]]),
  linkifiers: compileLinkifiers([{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' }]),
  ...extra,
});
const render = (content: string, extra?: Partial<RenderContext>) => renderMessage(content, context(extra));
const span = (code: string, name: string, title = name.replace(/_/g, ' ')) => `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${name}:</span>`;

describe('rendering extras', () => {
  test(':name: emoji: Unicode names and aliases, custom emoji, the extra emoji; unknown names stay text', () => {
    assert.equal(render(':+1: :thumbs_up: :octopus:').html, `<p>${span('1f44d', '+1')} ${span('1f44d', 'thumbs_up')} ${span('1f419', 'octopus')}</p>`);
    assert.equal(render(':green_tick:').html, '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/1/emoji/images/0123456789abcdef.png" title="green tick"></p>');
    assert.equal(render(':zulip:').html, '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>');
    assert.equal(render(':no_such_emoji: and 10:30:45').html, '<p>:no_such_emoji: and 10:30:45</p>');
    assert.equal(render('`:smile:`').html, '<p><code>:smile:</code></p>');
  });

  test('emoji typed as characters become the same markup under their canonical name', () => {
    assert.equal(render('I 👍 it ❤️').html, `<p>I ${span('1f44d', '+1')} it ${span('2764', 'heart')}</p>`);
    assert.equal(render('🇺🇸 #️⃣ 🏃‍♀️').html, `<p>${span('1f1fa-1f1f8', 'flag_united_states')} ${span('0023-20e3', 'hash')} ${span('1f3c3-200d-2640', 'woman_running')}</p>`);
    // Characters drawn as text by default stay text; so do plain digits and #.
    assert.equal(render('© ↔ 1 # 2').html, '<p>© ↔ 1 # 2</p>');
  });

  test('/me messages', () => {
    assert.equal(render('/me waves').isMeMessage, true);
    assert.equal(render('/me waves').html, '<p>/me waves</p>');
    assert.equal(render('/meh').isMeMessage, false);
    assert.equal(render('hello /me waves').isMeMessage, false);
  });

  test('spoilers: a Markdown header and hidden Markdown content', () => {
    assert.equal(
      render('```spoiler The *ending*\nHamlet @**King Hamlet** dies :skull:\n```').html,
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>The <em>ending</em></p>\n</div><div class="spoiler-content" aria-hidden="true">\n'
        + `<p>Hamlet <span class="user-mention" data-user-id="10">@King Hamlet</span> dies ${span('1f480', 'skull')}</p>\n</div></div>`,
    );
    assert.equal(render('~~~spoiler\nno header\n~~~').html, '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>no header</p>\n</div></div>');
    assert.ok(render('```spoiler\n@**King Hamlet**\n```').mentionedUserIds.has(10), 'mentions inside spoilers count');
    assert.equal(
      render('```python\nx = 1\n```').html,
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
    );
  });

  test('linkifiers: only at word boundaries, never inside code or existing links', () => {
    const link = (id: string) => `<a href="https://tracker.example/${id}">#${id}</a>`;
    assert.equal(render('#1, (#2) #3x a#4 `#5` [#6](https://x.example)').html, `<p>${link('1')}, (${link('2')}) #3x a#4 <code>#5</code> <a href="https://x.example">#6</a></p>`);
    assert.equal(render('#1 #2').html, `<p>${link('1')} ${link('2')}</p>`);
    assert.equal(render('#1', { linkifiers: [] }).html, '<p>#1</p>');
    assert.equal(render('#1').hasLink, true);
  });
});

// Output must be inert: only these tags and attributes, and links only to these schemes.
const TAGS = new Set(['p', 'br', 'a', 'em', 'strong', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'img', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 's', 'del', 'time']);
const ATTRIBUTES = new Set(['href', 'title', 'target', 'rel', 'class', 'src', 'alt', 'aria-label', 'aria-hidden', 'role', 'data-user-id', 'data-user-group-id', 'data-stream-id', 'start', 'style', 'data-code-language', 'datetime', 'data-src-fullsize']);
const decode = (s: string) => s.replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
  .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function assertInert(html: string, input: string): void {
  const where = `for input ${JSON.stringify(input.slice(0, 80))}`;
  let rest = html;
  for (;;) {
    const at = rest.indexOf('<');
    if (at < 0) break;
    rest = rest.slice(at);
    const m = /^<(\/?)([a-z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*\/?>/.exec(rest);
    assert.ok(m, `malformed or raw tag at ${JSON.stringify(rest.slice(0, 60))} ${where}`);
    assert.ok(TAGS.has(m[2]), `tag <${m[2]}> ${where}`);
    for (const [, name, value] of m[3].matchAll(/([a-z-]+)="([^"]*)"/g)) {
      assert.ok(ATTRIBUTES.has(name), `attribute ${name} ${where}`);
      const plain = decode(value).replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
      if (name === 'href' || name === 'src') {
        const scheme = /^([a-z][a-z0-9+.-]*):/.exec(plain)?.[1];
        assert.ok(scheme === undefined || ['http', 'https', 'mailto', 'ftp', 'tel', 'sms'].includes(scheme), `${name}=${value} ${where}`);
      }
      if (name === 'style') assert.match(value, /^text-align: (left|right|center);$/, where);
    }
    rest = rest.slice(m[0].length);
  }
}

const nestedSpoilers = (depth: number) => {
  let s = 'deep';
  for (let i = 0; i < depth; i++) s = `${'`'.repeat(3 + i)}spoiler level ${i}\n${s}\n${'`'.repeat(3 + i)}`;
  return s;
};

const HOSTILE: string[] = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1)) [x](JAVASCRIPT:alert(1)) [x](  javascript:alert(1)) [x](java\tscript:alert(1))',
  '[x](&#106;avascript:alert(1)) [x](&#x6A;avascript:alert(1)) [x](javascript&colon;alert(1))',
  '[x](vbscript:msgbox(1)) [x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [x](file:///etc/passwd)',
  '![x](javascript:alert(1)) ![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)',
  '<javascript:alert(1)> <vbscript:x> <http://ok.example>',
  '[x]\n\n[x]: javascript:alert(1)',
  '[a](http://x.example" onmouseover="alert(1)) [b](http://x.example \'onclick=alert(1)\')',
  '[a](<http://x.example" onclick="alert(1)>)',
  '`<b>` &lt;script&gt; &#x3C;script&#x3E; &#60;img src=x onerror=alert(1)&#62;',
  ':smile:" onload="x: :green_tick:"><script>',
  '@**x" onclick="y** @*support" onclick="y* #**Denmark"><script>** #**Denmark>"><img src=x onerror=1>**',
  '```spoiler <img src=x onerror=alert(1)>\n<script>alert(1)</script>\n[x](javascript:alert(1))\n```',
  '```"><script>alert(1)</script>\ncode\n```',
  '#1" onclick="x #2><script>',
  '\u202egnp.exe \u200b\u200d\ufeff <scr\u200bipt>',
  '>'.repeat(5000) + ' deep quote',
  '- '.repeat(4000) + 'deep list',
  Array.from({ length: 130 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n'),
  Array.from({ length: 2000 }, (_, i) => `${i % 2 ? '1.' : '-'} ${'>'.repeat(i % 7)} x`).join('\n'),
  '*'.repeat(10000),
  '_a'.repeat(5000),
  '['.repeat(10000),
  '](' .repeat(5000),
  '`'.repeat(10000),
  '<'.repeat(10000),
  ':'.repeat(10000),
  '@**'.repeat(3300),
  '#**'.repeat(3300),
  ':smile'.repeat(1600),
  '👍'.repeat(5000),
  ':+1:'.repeat(2500),
  '#1 '.repeat(3300),
  '[x](' + 'a'.repeat(9990) + ')',
  '| a | b |\n|:-|-:|\n' + '| <script> | [x](javascript:1) |\n'.repeat(300),
  nestedSpoilers(40),
  '~~~spoiler\n'.repeat(800),
  '&'.repeat(3000) + '&#'.repeat(2000),
  'http://x.example/' + '('.repeat(5000),
  '\\'.repeat(10000),
];

// What reaches the renderer is at most a message's length (longer content is truncated when sent).
const corpus = HOSTILE.map((input) => input.slice(0, 10_000));

test('hostile Markdown renders inert', () => {
  for (const input of corpus) assertInert(render(input).html, input);
});

test('hostile Markdown renders in bounded time', () => {
  // The previous test warmed the code up, as a running server is; this pass is timed.
  const started = performance.now();
  for (const input of corpus) {
    const one = performance.now();
    render(input);
    assert.ok(performance.now() - one < 1000, `${JSON.stringify(input.slice(0, 40))} took ${Math.round(performance.now() - one)} ms`);
  }
  // A generous sanity bound for the whole corpus; typical runs take a small fraction of it.
  assert.ok(performance.now() - started < 2000, `corpus took ${Math.round(performance.now() - started)} ms`);
});

describe('over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('POST /messages/render renders emoji and spoilers', async () => {
    const res = await server.as('hamlet').post('/messages/render', { content: '```spoiler :tada:\n**x**\n```' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.rendered, `<div class="spoiler-block"><div class="spoiler-header">\n<p>${span('1f389', 'tada')}</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p><strong>x</strong></p>\n</div></div>`);
  });

  test('a /me message is flagged as one', async () => {
    const sent = await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.cordelia.id], content: '/me bows' });
    const message = (await server.as('cordelia').get(`/messages/${sent.body.id}`)).body.message;
    assert.deepEqual([message.is_me_message, message.content], [true, '<p>/me bows</p>']);
  });
});
