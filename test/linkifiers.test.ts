import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';

let server: TestServer;
const MODERN = { client_capabilities: { linkifier_url_template: true } };
const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };

function assertInvalid(res: { status: number; body: any; text: string }, msg: string, field?: string) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, 'BAD_REQUEST');
  if (field) assert.deepEqual(res.body.errors, { [field]: [msg] });
}

async function clearLinkifiers() {
  for (const l of (await server.as('iago').get('/realm/linkifiers')).body.linkifiers) await server.as('iago').delete(`/realm/filters/${l.id}`);
}

before(async () => {
  server = await startTestServer();
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
});
after(() => server.close());

test('adding: listed in both formats, in register by capability, announced in both event formats', async () => {
  const legacy = await Listeners.open(server, ['hamlet']);
  const modern = await Listeners.open(server, ['hamlet'], MODERN);
  const res = await server.as('iago').post('/realm/filters', ISSUES);
  assert.equal(res.status, 200, res.text);
  const id = res.body.id;
  assert.equal(typeof id, 'number');
  const expected = [{ ...ISSUES, id }];
  assert.deepEqual((await server.as('hamlet').get('/realm/linkifiers')).body.linkifiers, expected);
  assert.deepEqual((await server.as('hamlet').get('/realm/filters')).body.filters, [[ISSUES.pattern, 'https://github.com/zulip/zulip/issues/%(id)s', id]]);

  const [modernEvent, ...rest] = await modern.take('hamlet');
  assert.deepEqual(rest, []);
  assert.deepEqual([modernEvent.type, modernEvent.realm_linkifiers], ['realm_linkifiers', expected]);
  const [legacyEvent, ...more] = await legacy.take('hamlet');
  assert.deepEqual(more, []);
  assert.deepEqual([legacyEvent.type, legacyEvent.realm_filters], ['realm_filters', [[ISSUES.pattern, 'https://github.com/zulip/zulip/issues/%(id)s', id]]]);

  const types = ['realm_linkifiers', 'realm_filters'];
  const withCapability = (await server.as('hamlet').post('/register', { fetch_event_types: types, ...MODERN })).body;
  assert.deepEqual([withCapability.realm_linkifiers, withCapability.realm_filters], [expected, []]);
  const without = (await server.as('hamlet').post('/register', { fetch_event_types: types })).body;
  assert.deepEqual([without.realm_linkifiers, without.realm_filters], [[], [[ISSUES.pattern, 'https://github.com/zulip/zulip/issues/%(id)s', id]]]);
  assert.deepEqual(validateRegisterResponse(withCapability), []);
  assert.deepEqual(validateRegisterResponse(without), []);
  await clearLinkifiers();
});

test('only administrators change linkifiers; everyone may list them', async () => {
  const { id } = (await server.as('desdemona').post('/realm/filters', ISSUES)).body;
  for (const who of ['shiva', 'hamlet', 'polonius'] as const) {
    for (const res of [
      await server.as(who).post('/realm/filters', { pattern: 'x(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' }),
      await server.as(who).patch(`/realm/filters/${id}`, ISSUES),
      await server.as(who).delete(`/realm/filters/${id}`),
      await server.as(who).patch('/realm/linkifiers', { ordered_linkifier_ids: [id] }),
    ]) {
      assert.equal(res.status, 400, `${who}: ${res.text}`);
      assert.deepEqual(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    assert.equal((await server.as(who).get('/realm/linkifiers')).body.linkifiers.length, 1);
  }
  await clearLinkifiers();
});

test('validation errors, with the field they concern', async () => {
  const iago = server.as('iago');
  const add = (pattern: string, url_template: string) => iago.post('/realm/filters', { pattern, url_template });
  assertInvalid(await add('#(?P<id>[0-9]+', 'https://x.example/{id}'), 'Bad regular expression: missing closing ): `#(?P<id>[0-9]+`', '__all__');
  assertInvalid(await add('(?P<id>a)\\1', 'https://x.example/{id}'), 'Bad regular expression: invalid escape sequence: `\\1`', '__all__');
  assertInvalid(await add('#(?P<id>[0-9]+)', 'https://x.example/{id'), 'Invalid URL template.', 'url_template');
  assertInvalid(await add('#(?P<id>[0-9]+)', 'https://x.example/{id}/{other}'), "Group 'other' in URL template is not present in linkifier pattern.", '__all__');
  assertInvalid(await add('#(?P<id>[0-9]+)(?P<extra>x)?', 'https://x.example/{id}'), "Group 'extra' in linkifier pattern is not present in URL template.", '__all__');
  assertInvalid(await add('  ', 'https://x.example/'), 'This field cannot be blank.', 'pattern');
  const { id } = (await add(ISSUES.pattern, ISSUES.url_template)).body;
  assertInvalid(await add(` ${ISSUES.pattern} `, 'https://other.example/{id}'), 'Realm filter with this Realm and Pattern already exists.', '__all__');
  for (const res of [await iago.patch('/realm/filters/999999', ISSUES), await iago.delete('/realm/filters/999999')]) {
    assert.deepEqual(res.body, { result: 'error', msg: 'Linkifier not found.', code: 'BAD_REQUEST' });
  }
  assertInvalid(await iago.patch(`/realm/filters/${id}`, { pattern: ISSUES.pattern, url_template: 'bad {' }), 'Invalid URL template.', 'url_template');
  assert.deepEqual((await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [id, id] })).body.msg, 'The ordered list must not contain duplicated linkifiers');
  assert.deepEqual((await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [] })).body.msg, 'The ordered list must enumerate all existing linkifiers exactly once');
  assert.deepEqual((await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [id, 999999] })).body.msg, 'The ordered list must enumerate all existing linkifiers exactly once');
  await clearLinkifiers();
});

test('linkifiers in messages and topic_links; editing, reordering and removing them', async () => {
  const iago = server.as('iago');
  const a = (await iago.post('/realm/filters', ISSUES)).body.id;
  const b = (await iago.post('/realm/linkifiers', { pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/pull/{id}' })).body.id;
  const l = await Listeners.open(server, ['hamlet'], { ...MODERN, event_types: ['message'], apply_markdown: true });

  const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'fix #12 and zulip/zulip#34, see https://example.com/x', content: 'See #7, not `#8` nor abc#9; also zulip/zulip#10.' });
  assert.equal(sent.status, 200, sent.text);
  const link = (url: string, text: string) => `<a href="${url}">${text}</a>`;
  const expectedHtml = `<p>See ${link('https://github.com/zulip/zulip/issues/7', '#7')}, not <code>#8</code> nor abc#9; also ${link('https://github.com/zulip/zulip/pull/10', 'zulip/zulip#10')}.</p>`;
  const expectedLinks = [
    { text: '#12', url: 'https://github.com/zulip/zulip/issues/12' },
    { text: 'zulip/zulip#34', url: 'https://github.com/zulip/zulip/pull/34' },
    { text: 'https://example.com/x', url: 'https://example.com/x' },
  ];
  const [event] = await l.take('hamlet', 'message');
  assert.equal(event.message.content, expectedHtml);
  assert.deepEqual(event.message.topic_links, expectedLinks);
  const fetched = (await server.as('cordelia').get(`/messages/${sent.body.id}`)).body.message;
  assert.equal(fetched.content, expectedHtml);
  assert.deepEqual(fetched.topic_links, expectedLinks);
  const direct = await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.cordelia.id], content: 'dm #3' });
  const dm = (await server.as('hamlet').get(`/messages/${direct.body.id}`)).body.message;
  assert.deepEqual(dm.topic_links, []);
  assert.equal(dm.content, `<p>dm ${link('https://github.com/zulip/zulip/issues/3', '#3')}</p>`);

  // Topic links follow the linkifiers as they are now; an earlier linkifier wins an overlap.
  const overlap = (await iago.post('/realm/filters', { pattern: '(?P<org>zulip)/zulip#(?P<id>[0-9]+)', url_template: 'https://overlap.example/{org}/{id}' })).body.id;
  const topicLinks = async () => (await server.as('cordelia').get(`/messages/${sent.body.id}`)).body.message.topic_links.map((t: any) => t.url);
  assert.deepEqual((await topicLinks())[1], 'https://github.com/zulip/zulip/pull/34');
  const reorder = await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [overlap, a, b] });
  assert.equal(reorder.status, 200, reorder.text);
  assert.deepEqual((await iago.get('/realm/linkifiers')).body.linkifiers.map((x: any) => x.id), [overlap, a, b]);
  assert.deepEqual(await topicLinks(), ['https://github.com/zulip/zulip/issues/12', 'https://overlap.example/zulip/34', 'https://example.com/x']);

  assert.equal((await iago.patch(`/realm/linkifiers/${a}`, { pattern: 'issue-(?P<num>[0-9]+)', url_template: 'https://tracker.example/{num}' })).status, 200);
  assert.equal((await iago.delete(`/realm/linkifiers/${overlap}`)).status, 200);
  assert.deepEqual((await iago.get('/realm/linkifiers')).body.linkifiers, [
    { pattern: 'issue-(?P<num>[0-9]+)', url_template: 'https://tracker.example/{num}', id: a },
    { pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/pull/{id}', id: b },
  ]);
  const rendered = await server.as('hamlet').post('/messages/render', { content: 'issue-5 and #6' });
  assert.equal(rendered.body.rendered, `<p>${link('https://tracker.example/5', 'issue-5')} and #6</p>`);
  await clearLinkifiers();
});

test('patterns run in linear time and templates cannot make unsafe links', async () => {
  const iago = server.as('iago');
  // Catastrophic for a backtracking engine; RE2 matching stays linear.
  assert.equal((await iago.post('/realm/filters', { pattern: '(?P<x>(a+)+)b', url_template: 'https://slow.example/{x}' })).status, 200);
  assert.equal((await iago.post('/realm/filters', { pattern: 'js(?P<x>[0-9]+)', url_template: 'javascript:alert({x})' })).status, 200);
  const started = Date.now();
  const content = `${'a'.repeat(9000)}! js1 ${'a'.repeat(30)}b`;
  const res = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'js2 aaab', content });
  assert.equal(res.status, 200, res.text);
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  const message = (await server.as('hamlet').get(`/messages/${res.body.id}`)).body.message;
  assert.ok(!message.content.includes('javascript:'), message.content);
  assert.ok(message.content.includes('href="https://slow.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"'));
  assert.deepEqual(message.topic_links, [{ text: 'aaab', url: 'https://slow.example/aaa' }]);
  await clearLinkifiers();
});

test('URL templates (RFC 6570): operators, encoding, the legacy form', async () => {
  const { UriTemplate } = await import('../src/lib/uri-template.js');
  const expand = (t: string, values: Record<string, string | null>) => UriTemplate.parse(t)!.expand(values);
  const v = { id: 'a b/c', q: 'x&y', empty: '', none: null };
  assert.equal(expand('https://x.example/{id}', v), 'https://x.example/a%20b%2Fc');
  assert.equal(expand('https://x.example/{+id}', v), 'https://x.example/a%20b/c');
  assert.equal(expand('https://x.example/s{?q,empty,none}', v), 'https://x.example/s?q=x%26y&empty=');
  assert.equal(expand('https://x.example{/id}{#q}', v), 'https://x.example/a%20b%2Fc#x&y');
  assert.equal(expand('https://x.example/{id:3}', v), 'https://x.example/a%20b');
  assert.equal(expand('https://x.example/ünï/{id}', { id: 'é' }), 'https://x.example/%C3%BCn%C3%AF/%C3%A9');
  for (const bad of ['{', '}', 'https://x.example/{a b}', 'https://x.example/{=x}', 'https://x.example/{x:0}', 'a b', 'https://x.example/%zz']) {
    assert.equal(UriTemplate.parse(bad), null, bad);
  }
  assert.deepEqual([...UriTemplate.parse('{a}{?b,c}')!.variableNames], ['a', 'b', 'c']);
  assert.equal(UriTemplate.parse('https://x.example/{id}/{+path}')!.legacyFormat(), 'https://x.example/%(id)s/%(path)s');
});
