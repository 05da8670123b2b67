// Incoming webhooks take whatever a tool (or anyone holding a key) sends: arbitrary JSON in the shape of each
// integration's events, with fields missing, retyped or absurd, never gives a 5xx, and the server stays healthy.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { consistencyProblems } from './helpers/consistency.js';
import { fixture, makeHookBot, postHook, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'fuzz');
  await createChannel(server, 'hamlet', ['hamlet'], {}, 'fuzz');
});
after(() => server?.close());

// Real payloads to mutate, with the header their tool sends.
const SEEDS: [string, string, Record<string, string>][] = [
  ['github', fixture('github', 'push__force_1_commit'), { 'X-GitHub-Event': 'push' }],
  ['github', fixture('github', 'pull_request__opened'), { 'X-GitHub-Event': 'pull_request' }],
  ['github', fixture('github', 'issues'), { 'X-GitHub-Event': 'issue_comment' }],
  ['gitlab', fixture('gitlab', 'push_hook'), { 'X-Gitlab-Event': 'Push Hook' }],
  ['gitlab', fixture('gitlab', 'pipeline_hook__pipeline_succeeded'), { 'X-Gitlab-Event': 'Pipeline Hook' }],
  ['gitlab', fixture('gitlab', 'note_hook__merge_request_note'), { 'X-Gitlab-Event': 'Note Hook' }],
  ['alertmanager', fixture('alertmanager', 'alert'), {}],
  ['grafana', fixture('grafana', 'alert_v8'), {}],
  ['grafana', fixture('grafana', 'alert_v7'), {}],
  ['sentry', fixture('sentry', 'event_for_exception_python'), {}],
  ['jira', fixture('jira', 'issue_created_with_assignee'), {}],
  ['slack_incoming', fixture('slack_incoming', 'blocks'), {}],
];

const strange = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 30 }), fc.constant(''), fc.constant('0'.repeat(40)),
  fc.constant([]), fc.constant({}), fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.constant('x'.repeat(70_000)), fc.constant('\u0000\u202e<script>'), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

// Replaces, deletes or adds a value at a path found in the payload.
function paths(v: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (v && typeof v === 'object' && prefix.length < 6) for (const [k, child] of Object.entries(v)) paths(child, [...prefix, k], out);
  return out;
}
function mutate(root: unknown, path: string[], op: 'set' | 'delete', value: unknown): unknown {
  if (!path.length) return op === 'set' ? value : {};
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  if (!rest.length) {
    if (op === 'delete') delete copy[head];
    else copy[head] = value;
  } else copy[head] = mutate(copy[head], rest, op, value);
  return copy;
}

test('mutated payloads of every integration: never a 5xx, always the envelope', async () => {
  const failures: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.nat(SEEDS.length - 1), fc.array(fc.tuple(fc.nat(), fc.constantFrom('set' as const, 'delete' as const), strange), { minLength: 1, maxLength: 4 }), fc.boolean(),
      async (seed, edits, topic) => {
        const [integration, body, headers] = SEEDS[seed];
        let payload: unknown = JSON.parse(body);
        for (const [i, op, value] of edits) {
          const all = paths(payload);
          payload = mutate(payload, all[i % all.length], op, value);
        }
        const reply = await postHook(server, integration, { api_key: bot.apiKey, stream: 'fuzz', ...(topic ? { topic: 'fuzzed' } : {}) }, JSON.stringify(payload), headers);
        if (reply.status >= 500 || typeof reply.body?.result !== 'string') failures.push(`${integration} ${JSON.stringify(payload).slice(0, 300)} → ${reply.status} ${reply.text.slice(0, 200)}`);
        assert.ok(reply.status < 500, `${integration}: ${reply.status} ${reply.text.slice(0, 200)}`);
      }),
    { numRuns: Number(process.env.PARLANCE_FUZZ_RUNS ?? 400) },
  );
  assert.deepEqual(failures, []);
  assert.equal((await server.anon().get('/health')).status, 200);
  assert.deepEqual(await consistencyProblems(server), []);
});

test('NUL in a payload\'s text (which PostgreSQL refuses in text) is posted as U+FFFD', async () => {
  const p = JSON.parse(fixture('github', 'push__force_1_commit'));
  p.commits[0].message = 'nul\u0000here';
  const reply = await postHook(server, 'github', { api_key: bot.apiKey, stream: 'fuzz' }, JSON.stringify(p), { 'X-GitHub-Event': 'push' });
  assert.equal(reply.status, 200, reply.text);
  const { messages } = (await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: 'fuzz' }] })).body;
  assert.match(messages[0].content, /nul\ufffdhere/);
});

test('payloads that are not objects, and a GitHub event header naming nothing, are refused or ignored cleanly', async () => {
  for (const [integration, headers] of [['github', { 'X-GitHub-Event': 'push' }], ['gitlab', { 'X-Gitlab-Event': 'Push Hook' }], ['alertmanager', {}], ['grafana', {}], ['sentry', {}], ['jira', {}], ['slack_incoming', {}]] as const) {
    for (const body of ['[]', '"text"', '42', 'null', '[[[[[[[[[[]]]]]]]]]]']) {
      const reply = await postHook(server, integration, { api_key: bot.apiKey, stream: 'fuzz' }, body, headers);
      assert.ok(reply.status < 500 && reply.body?.result, `${integration} ${body}: ${reply.status} ${reply.text}`);
    }
  }
  const reply = await postHook(server, 'github', { api_key: bot.apiKey, stream: 'fuzz' }, fixture('github', 'issues'), { 'X-GitHub-Event': '__proto__' });
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.code, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE');
});
