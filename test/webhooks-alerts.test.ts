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

test('Alertmanager: one topic per instance, firing and resolved apart, each alert with its graph link', async () => {
  const { reply, posts } = await postsFrom(server, 'alertmanager', { api_key: bot.apiKey, stream }, fixture('alertmanager', 'alert'));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [
    { topic: 'webserver-0', content: ':alert: **FIRING**\n* InstanceDown ([graph](http://cobalt:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))\n* HighLatency ([graph](http://cobalt:9090/graph?g0.expr=latency&g0.tab=0))' },
    { topic: 'webserver-1', content: ':squared_ok: **Resolved** InstanceDown ([graph](http://cobalt:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))' },
  ]);
});

test('Alertmanager: `name` and `desc` pick the labels (or annotations) for the topic and the line', async () => {
  const { posts } = await postsFrom(server, 'alertmanager', { api_key: bot.apiKey, stream, name: 'alertname', desc: 'summary' }, fixture('alertmanager', 'alert'));
  assert.deepEqual(posts.map((p) => p.topic), ['InstanceDown', 'InstanceDown', 'HighLatency']);
  assert.equal(posts[0].content, ':alert: **FIRING** Instance webserver-0 down ([graph](http://cobalt:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))');
  assert.equal(posts[2].content, ':alert: **FIRING** <missing field: summary> ([graph](http://cobalt:9090/graph?g0.expr=latency&g0.tab=0))');
});

test('Grafana 8+ alerts: "[alertname]" topic, state, times, labels, values, annotations and links', async () => {
  const { reply, posts } = await postsFrom(server, 'grafana', { api_key: bot.apiKey, stream }, fixture('grafana', 'alert_new'));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: '[TestAlert]',
    content: ":alert: **FIRING**\n\n**TestAlert**\n\nThis alert was fired at <time:2022-08-31T05:54:04+00:00>.\n\nLabels:\n- alertname: TestAlert\n- instance: Grafana\n\nValues:\n[ metric='foo' labels={instance=bar} value=10 ]\n\nAnnotations:\n- summary: Notification test\n\n[Generator](https://grafana.example.com/alerting/list)\n[Silence](https://grafana.example.com/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert)",
  }]);
});

test('Grafana 7 legacy alerts: the title as topic, the rule linked, the matches and the image', async () => {
  const { posts } = await postsFrom(server, 'grafana', { api_key: bot.apiKey, stream }, fixture('grafana', 'alert_legacy'));
  assert.deepEqual(posts, [{
    topic: '[Alerting] Test notification',
    content: ':alert: **ALERTING**\n\n[Test notification](https://grafana.example.com/)\n\nSomeone is testing the alert notification within grafana.\n\n**Count:** 1\n\n[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)',
  }]);
});
