// Prometheus Alertmanager and Grafana: firing and resolved alerts, grouped and linked as the reference posts them.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { fixture, makeHookBot, postsFrom, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
const stream = 'alerts';
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'alerts');
  await createChannel(server, 'hamlet', ['hamlet'], {}, stream);
});
after(() => server?.close());

const GRAPH = 'http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0';

test('Alertmanager, the reference\'s test_error_issue_message: `name`/`desc` pick the topic and the line, firing alerts listed with graph links', async () => {
  const { reply, posts } = await postsFrom(server, 'alertmanager', { api_key: bot.apiKey, stream, name: 'topic', desc: 'description' }, fixture('alertmanager', 'alert'));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{ topic: 'andromeda', content: `:alert: **FIRING**\n* CPU core temperature is 34.75C ([graph](${GRAPH}))\n* CPU core temperature is 17.625C ([graph](${GRAPH}))` }]);
});

test('Alertmanager defaults (topic: instance, line: alertname): one message per topic and status, a single alert on one line', async () => {
  const p = JSON.parse(fixture('alertmanager', 'alert'));
  p.alerts[0].labels.instance = 'andromeda:9100';
  p.alerts[1].labels.instance = 'cobalt:9100';
  p.alerts[1].status = 'resolved';
  p.alerts.push({ ...p.alerts[0], status: 'resolved', labels: { ...p.alerts[0].labels, alertname: 'Disk full' } });
  const { posts } = await postsFrom(server, 'alertmanager', { api_key: bot.apiKey, stream }, JSON.stringify(p));
  assert.deepEqual(posts, [
    { topic: 'andromeda:9100', content: `:alert: **FIRING** High CPU Temperature ([graph](${GRAPH}))` },
    { topic: 'andromeda:9100', content: `:squared_ok: **Resolved** Disk full ([graph](${GRAPH}))` },
    { topic: 'cobalt:9100', content: `:squared_ok: **Resolved** High CPU Temperature ([graph](${GRAPH}))` },
  ]);
  // A label that no alert has: the reference's placeholders.
  const missing = await postsFrom(server, 'alertmanager', { api_key: bot.apiKey, stream, name: 'rack', desc: 'runbook' }, fixture('alertmanager', 'alert'));
  assert.equal(missing.posts[0].topic, '(unknown)');
  assert.match(missing.posts[0].content, /^:alert: \*\*FIRING\*\*\n\* <missing field: runbook> \(\[graph\]/);
});

test('Grafana 8+ alerts, the reference\'s test_alert_v8: "[alertname]" topic, state, times, labels, values, annotations, silence link', async () => {
  const { reply, posts } = await postsFrom(server, 'grafana', { api_key: bot.apiKey, stream }, fixture('grafana', 'alert_v8'));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: '[TestAlert]',
    content: ":checkbox: **RESOLVED**\n\n**TestAlert**\n\nThis alert was fired at <time:2022-08-31T05:54:04.52289368Z>.\n\nThis alert was resolved at <time:2022-08-31T10:30:00.52288431Z>.\n\nLabels:\n- alertname: TestAlert\n- instance: Grafana\n\nValues:\n[ metric='foo' labels={instance=bar} value=10 ]\n\nAnnotations:\n- summary: Notification test\n\n[Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)",
  }]);
  // Firing, several alerts: one message each, in order; without an alertname, the fingerprint names the topic.
  const p = JSON.parse(fixture('grafana', 'alert_v8'));
  const firing = { ...p.alerts[0], status: 'firing', endsAt: '0001-01-01T00:00:00Z' };
  p.alerts = [firing, { ...firing, labels: { instance: 'Grafana' }, values: { A: 2473545728, B: 0 } }];
  const two = await postsFrom(server, 'grafana', { api_key: bot.apiKey, stream }, JSON.stringify(p));
  assert.deepEqual(two.posts.map((m) => m.topic), ['[TestAlert]', '[57c6d9296de2ad39]']);
  assert.match(two.posts[0].content, /^:alert: \*\*FIRING\*\*\n\n\*\*TestAlert\*\*\n\nThis alert was fired at <time:2022-08-31T05:54:04.52289368Z>\.\n\nLabels:/);
  assert.match(two.posts[1].content, /\n\nValues:\n- A: 2473545728\n- B: 0\n\nAnnotations:/);
});

test('Grafana 7 legacy alerts, the reference\'s test_alert_v7 (its body labelled as a form, as its test sends it)', async () => {
  const { reply, posts } = await postsFrom(server, 'grafana', { api_key: bot.apiKey, stream }, fixture('grafana', 'alert_v7'), { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: '[Alerting] Test notification',
    content: ':alert: **ALERTING**\n\n[Test rule](http://localhost:3000/)\n\nSomeone is testing the alert notification within grafana.\n\n**High value:** 100\n**Higher Value:** 200\n\n[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)',
  }]);
});
