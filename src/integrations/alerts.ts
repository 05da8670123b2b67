// Alerting tools: Prometheus Alertmanager and Grafana (8+ unified alerting, and the legacy 7.x format), in the
// reference's topics and wording: one message per alert group, firing and resolved apart, with the links the tool
// sends (graph, generator, silence, image).
import { list, obj, optText, text, type HookMessage, type Integration } from './types.js';

type P = Record<string, any>;

// Alertmanager: the topic is the alert's `name` label (default "instance"), the line its `desc` label (default
// "alertname"); both are URL parameters.
export const alertmanager: Integration = {
  name: 'alertmanager',
  displayName: 'Alertmanager',
  events: ['firing', 'resolved (grouped per instance; `name` and `desc` choose the labels)'],
  extraParams: '&name=instance&desc=alertname',
  handle({ payload, param }) {
    const nameField = param('name') ?? 'instance';
    const descField = param('desc') ?? 'alertname';
    const topics = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const a of list(obj(payload).alerts)) {
      const labels = obj(a.labels);
      const annotations = obj(a.annotations);
      const name = text(labels[nameField] ?? annotations[nameField] ?? '(unknown)');
      const desc = text(labels[descField] ?? annotations[descField] ?? `<missing field: ${descField}>`);
      const url = text(a.generatorURL).replace('tab=1', 'tab=0');
      const group = topics.get(name) ?? { firing: [], resolved: [] };
      topics.set(name, group);
      (a.status === 'firing' ? group.firing : group.resolved).push(`${desc} ([graph](${url}))`);
    }
    const out: HookMessage[] = [];
    for (const [topic, group] of topics) {
      for (const [status, lines] of [['firing', group.firing], ['resolved', group.resolved]] as const) {
        if (!lines.length) continue;
        const head = status === 'firing' ? ':alert: **FIRING**' : ':squared_ok: **Resolved**';
        out.push({ topic, event: status, content: lines.length === 1 ? `${head} ${lines[0]}` : `${head}\n${lines.map((l) => `* ${l}`).join('\n')}` });
      }
    }
    return out;
  },
};

// "<time:…>" shows a time in each reader's zone; the tool's own ISO text is kept, as the reference's tests expect.
const globalTime = (iso: string) => `<time:${iso}>`;

const entries = (o: unknown) => Object.entries(obj(o)).map(([k, v]) => `- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}\n`).join('');

function grafanaAlert(a: P): HookMessage {
  const status = a.status === 'resolved' ? 'resolved' : 'firing';
  let body = `${status === 'firing' ? ':alert:' : ':checkbox:'} **${status.toUpperCase()}**\n\n`;
  const labels = obj(a.labels);
  let topic: string;
  if (labels.alertname) {
    topic = `[${text(labels.alertname)}]`;
    body += `**${text(labels.alertname)}**\n\n`;
  } else topic = `[${text(a.fingerprint)}]`;
  body += `This alert was fired at ${globalTime(text(a.startsAt))}.`;
  if (a.endsAt && a.endsAt !== '0001-01-01T00:00:00Z') body += `\n\nThis alert was resolved at ${globalTime(text(a.endsAt))}.`;
  if (Object.keys(labels).length) body += `\n\nLabels:\n${entries(labels)}\n`;
  if (a.values && Object.keys(obj(a.values)).length) body += `Values:\n${entries(a.values)}\n`;
  else if (a.valueString) body += `Values:\n${text(a.valueString)}\n\n`;
  if (a.annotations && Object.keys(obj(a.annotations)).length) body += `Annotations:\n${entries(a.annotations)}`;
  if (a.generatorURL) body += `\n[Generator](${text(a.generatorURL)})`;
  if (a.silenceURL) body += `\n[Silence](${text(a.silenceURL)})`;
  if (a.imageURL) body += `\n[Image](${text(a.imageURL)})`;
  return { topic, content: `${body}\n`, event: status };
}

export const grafana: Integration = {
  name: 'grafana',
  displayName: 'Grafana',
  events: ['firing', 'resolved (Grafana 8+ alerting)', 'alerting, ok, pending, no_data, paused (Grafana 7 legacy alerts)'],
  handle({ payload }) {
    const p = obj(payload);
    if (Array.isArray(p.alerts)) return p.alerts.map((a: unknown) => grafanaAlert(obj(a)));
    const state = text(p.state);
    const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
    const matches = list(p.evalMatches).map((m: P) => `**${text(m.metric)}:** ${m.value === null ? 'None' : text(m.value)}\n`).join('');
    const message = p.message !== undefined ? `${text(p.message)}\n\n` : '';
    let body = `${icon} **${state.toUpperCase()}**\n\n[${text(p.ruleName)}](${text(p.ruleUrl)})\n\n${message}${matches}`;
    if (p.imageUrl) body += `\n[Click to view visualization](${optText(p.imageUrl)})`;
    return [{ topic: text(p.title), content: body.trim(), event: state }];
  },
};
