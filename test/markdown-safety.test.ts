// Rendering safety: hostile Markdown renders to inert HTML, quickly. The output is parsed as a browser would
// (parse5) and every element and attribute checked against an allow-list: no script or style, no event
// handlers, links only to http(s), mailto or relative addresses. Sizes are bounded and the time budget is
// generous: it catches pathological blow-ups, it measures nothing.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { renderMessage, type RenderContext } from '../src/markdown/message.js';
import { compileLinkifiers } from '../src/markdown/linkifiers.js';
import { startTestServer, type TestServer } from './helpers/server.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const ELEMENTS = new Set([
  'p', 'br', 'hr', 'a', 'strong', 'em', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'img', 'time',
]);
const ATTRIBUTES = new Set([
  'href', 'title', 'target', 'rel', 'class', 'data-user-id', 'data-user-group-id', 'data-stream-id', 'aria-label', 'aria-hidden', 'role', 'alt',
  'src', 'start', 'style', 'data-code-language', 'datetime', 'data-src-fullsize', 'data-original-dimensions', 'data-original-content-type',
  'data-animated',
]);
// The scheme as a browser reads it (after dropping leading controls and spaces and any tab or newline); an
// address without one is relative to the page. Web and e-mail addresses, and the schemes the HTML standard
// lists as safe to hand to another program (tel:, sms:, …), as the reference links. An address a browser
// cannot parse past its scheme (`http://javascript:x`) is inert, but its scheme still has to be one of these.
const SAFE_SCHEMES = ['http', 'https', 'ftp', 'mailto', 'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'matrix', 'mms', 'news',
  'nntp', 'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp'];
function safeUrl(url: string): boolean {
  const plain = url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(plain)?.[1].toLowerCase();
  return scheme === undefined || SAFE_SCHEMES.includes(scheme);
}

const hostileName = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
const context: RenderContext = {
  usersByName: new Map([[hostileName.toLowerCase(), [{ id: 10, fullName: hostileName }]], ['king hamlet', [{ id: 11, fullName: 'King Hamlet' }]]]),
  usersById: new Map([[10, { id: 10, fullName: hostileName }], [11, { id: 11, fullName: 'King Hamlet' }]]),
  groupsByName: new Map([[hostileName.toLowerCase(), { id: 20, name: hostileName }]]),
  channelsByName: new Map([[hostileName.toLowerCase(), { id: 30, name: hostileName }], ['denmark', { id: 31, name: 'Denmark' }]]),
  // Custom emoji addresses are made by the server, never by users; one with a quote still must not break out.
  realmEmoji: new Map([['quote', { id: 8, sourceUrl: '/x"onerror="alert(1)' }]]),
  linkifiers: compileLinkifiers([
    { id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' },
    { id: 2, pattern: 'JS-(?P<id>[a-z:()0-9]+)', urlTemplate: 'javascript:{id}' },
    { id: 3, pattern: 'Q-(?P<id>[^ ]+)', urlTemplate: 'https://q.example/{id}' },
  ]),
};

const big = (n: number, s: string) => s.repeat(n);
export const CORPUS: string[] = [
  '<script>alert(1)</script>', '<style>body{display:none}</style>', '<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>',
  '<iframe src="https://evil.example"></iframe>', '<svg onload=alert(1)>', '<!-- comment --><div onclick="x()">d</div>', '<scr<script>ipt>alert(1)</script>',
  '[x](javascript:alert(1))', '[x](JaVaScRiPt:alert(1))', '[x](  javascript:alert(1))', '[x](java\u0000script:alert(1))', '[x](java\tscript:alert(1))',
  '[x](&#106;avascript:alert(1))', '[x](&#x6A;&#x61;vascript:alert(1))', '[x](javascript&colon;alert(1))', '[x](jav&#x09;ascript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)', '[x](DATA:text/html,<script>alert(1)</script>)', '[x](vbscript:msgbox(1))',
  '[x](VBScript:msgbox(1))', '[x](file:///etc/passwd)', '[x](//evil.example/x)', '<javascript:alert(1)>', '<data:text/html,x>', 'javascript:alert(1)',
  '[x](https://ok.example "title\\" onmouseover=\\"alert(1)")', '[x](https://ok.example \'t" onclick="y\')', '[x](<https://ok.example/a b> "q\\"uote")',
  '[x]: javascript:alert(1)\n\n[x]', '[ref]\n\n[ref]: vbscript:alert(1) "t"', '[x](https://ok.example/"onmouseover="alert(1))',
  '![img](javascript:alert(1))', '![img](data:image/svg+xml;base64,PHN2Zy8+)', '![img](data:image/png;base64,iVBORw0KGgo=)', '![a" onerror="alert(1)](https://ok.example/i.png)',
  '![x](https://ok.example/i.png "t\\" onload=\\"y")', '[![x](javascript:alert(1))](javascript:alert(2))',
  `@**${hostileName}**`, `@_**${hostileName}**`, `@*${hostileName}*`, `#**${hostileName}**`, `#**${hostileName}>topic"><script>x</script>**`,
  '#**Denmark>"><img src=x onerror=alert(1)>**', '@**King Hamlet|10**', '@**|10**', ':evil:', ':quote:', ':"onmouseover="alert(1):', ':<script>:',
  '#123 JS-alert(1) Q-"><script>alert(1)</script> Q-javascript:alert(1)', 'https://ok.example/"><script>alert(1)</script>', 'www.example.com/<script>',
  'mailto:a@b.example', 'ftp://files.example/x', 'http://x.example/?q="><svg/onload=alert(1)>', '&lt;script&gt;alert(1)&lt;/script&gt;', '&#60;script&#62;',
  '&amp;lt;script', '&nbsp;&copy;&#0;&#xD800;&#x110000;&bogus;', '\u0000<script>\u0000', 'a\u0000b', '```\n<script>alert(1)</script>\n```',
  '```js" onload="x\ncode\n```', '```spoiler <script>x</script>\n[x](javascript:alert(1))\n```', '`<script>`', '| a | b |\n|---|--:|\n| <script> | [x](javascript:y) |',
  '> <script>\n> > [x](javascript:1)', '* <img src=x onerror=y>\n  * [x](vbscript:z)', '1. x\n2. y\n\n99999999999999999999. z', '<https://ok.example/a"b>',
  '/me <script>alert(1)</script>', '**bold *italic `code` [x](javascript:1)* bold**', '[x](https://ok.example)\u202e[y](javascript:z)',
  // Unclosed and deeply nested constructs.
  big(5000, '> '), big(5000, '* '), big(5000, '1. '), big(10000, '*'), big(10000, '_a'), big(5000, '['), big(5000, '[a]('), big(5000, '**a'),
  big(3000, '```spoiler\n'), big(5000, '<div>'), big(5000, '`'), big(2000, '![x]('), big(5000, '@**'), big(5000, '#**'), big(5000, ':a'),
  big(10000, '&amp;'), big(10000, '&#'), big(3000, '| a ') + '\n' + big(3000, '|---') + '\n', big(5000, '\\'), big(2000, '> * 1. '),
  // Long lines, about the longest message (10,000 characters) and beyond.
  big(100_000, 'a'), big(2_000, 'https://ok.example/ '), big(4_000, '#1 '), big(4_000, ':+1: '), big(1_000, '@**King Hamlet** '),
];

test('every hostile input renders to allow-listed, inert HTML within a generous time', () => {
  const problems: string[] = [];
  for (const input of CORPUS) {
    const started = performance.now();
    const html = renderMessage(input, context).html;
    const took = performance.now() - started;
    const label = JSON.stringify(input.slice(0, 60));
    if (took > 5000) problems.push(`${label}: ${Math.round(took)} ms`);
    if (html.length > 40 * input.length + 1000) problems.push(`${label}: output ${html.length} characters for ${input.length}`);
    problems.push(...inertProblems(html).map((p) => `${label}: ${p}`));
  }
  assert.deepEqual(problems, []);
});

export function inertProblems(html: string): string[] {
  const problems: string[] = [];
  const walk = (node: Node) => {
    if ('tagName' in node) {
      const el = node as Element;
      if (!ELEMENTS.has(el.tagName)) problems.push(`element <${el.tagName}>`);
      for (const { name, value } of el.attrs) {
        if (!ATTRIBUTES.has(name) || name.startsWith('on')) problems.push(`attribute ${name}="${value.slice(0, 60)}" on <${el.tagName}>`);
        if ((name === 'href' || name === 'src') && !safeUrl(value)) problems.push(`${name}="${value.slice(0, 60)}"`);
        if (name === 'style' && !/^text-align: (left|right|center);$/.test(value)) problems.push(`style="${value.slice(0, 60)}"`);
      }
    }
    for (const child of (node as Element).childNodes ?? []) walk(child);
  };
  walk(parseFragment(html));
  return problems;
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('the server renders the corpus inertly or refuses it cleanly (POST /messages/render, sending)', async () => {
  const problems: string[] = [];
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Render' }] });
  for (const input of CORPUS) {
    const label = JSON.stringify(input.slice(0, 60));
    const rendered = await server.as('hamlet').post('/messages/render', { content: input });
    if (rendered.status === 200) problems.push(...inertProblems(rendered.body.rendered).map((p) => `${label}: ${p}`));
    else if (rendered.status >= 500 || rendered.body?.result !== 'error') problems.push(`${label}: ${rendered.status} ${rendered.text.slice(0, 200)}`);
  }
  // A sent message is stored as rendered: the same checks on what GET /messages returns.
  const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Render', topic: 'x', content: CORPUS.slice(0, 60).filter((c) => !c.includes('\u0000')).join('\n\n') });
  assert.equal(sent.status, 200, sent.text);
  const fetched = await server.as('hamlet').get(`/messages/${sent.body.id}`);
  problems.push(...inertProblems(fetched.body.message.content));
  assert.deepEqual(problems, []);
});
