// Sentry (issue and alert webhooks) and Jira (issue events), as the reference posts them: the topic names the
// issue, the message says what happened.
import { list, obj, optText, PayloadFieldError, text, UnsupportedEventError, type HookMessage, type Integration } from './types.js';

type P = Record<string, any>;

// Sentry: an internal integration's `data.event` (issue alerts: an exception with the frame that raised it, or a
// message event) or `data.issue` (created, resolved, assigned, ignored); a payload without `data` is the legacy
// plugin's. The topic is the issue's or event's title.
const HIGHLIGHT: Record<string, string> = { go: 'go', java: 'java', javascript: 'javascript', node: 'javascript', python: 'python3' };
const sentryTime = (v: unknown) => text(v).split('.')[0].replace('T', ' ');
const contextLines = (lines: unknown) => list(lines).map((l) => (l === '' ? '\n' : `     ${text(l)}\n`)).join('');

function sentryEvent(ev: P): HookMessage {
  const title = text(ev.title);
  if (Number(ev.version) < 7) throw new UnsupportedEventError('Sentry', 'Raven SDK');
  const head = `[${title}](${text(ev.web_url)})\n\`\`\`quote\n**level:** ${text(ev.level)}\n**timestamp:** ${sentryTime(ev.datetime)}\n`;
  if (ev.exception) {
    const filename = text(obj(ev.metadata).filename);
    let content = `**New exception:** ${head}**filename:** ${filename}\n\`\`\``;
    const trace = list(obj(ev.exception).values).find((v: P) => v && v.stacktrace)?.stacktrace;
    const frame = list(obj(trace).frames).find((f: P) => f && f.filename === filename);
    if (frame) {
      content += `\n\nTraceback:\n\`\`\`${HIGHLIGHT[text(ev.platform ?? '')] ?? ''}\n${contextLines(frame.pre_context)}---> ${text(frame.context_line ?? '')}\n${contextLines(frame.post_context)}\`\`\``;
    }
    return { topic: title, content, event: 'event' };
  }
  if (ev.logentry) return { topic: title, content: `**New message event:** ${head}\`\`\``, event: 'event' };
  throw new UnsupportedEventError('Sentry', 'unknown-event type');
}

function sentryIssue(action: string, issue: P, actor: P): HookMessage {
  const title = text(issue.title);
  const to = obj(issue.assignedTo);
  const assignee = issue.assignedTo ? (to.type === 'team' ? `team ${text(to.name)}` : text(to.name)) : 'No one';
  const by = () => text(actor.name);
  const bodies: Record<string, () => string> = {
    created: () => `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${text(issue.level)}\n**timestamp:** ${sentryTime(issue.lastSeen)}\n**assignee:** ${assignee}\n\`\`\``,
    resolved: () => `Issue **${title}** was marked as resolved by **${by()}**.`,
    assigned: () => `Issue **${title}** has now been assigned to **${assignee}** by **${by()}**.`,
    ignored: () => `Issue **${title}** was ignored by **${by()}**.`,
  };
  if (!bodies[action]) throw new UnsupportedEventError('Sentry', 'unknown-issue-action type');
  return { topic: title, content: bodies[action](), event: `issue:${action}` };
}

export const sentry: Integration = {
  name: 'sentry',
  displayName: 'Sentry',
  events: ['issue alerts (exceptions with their traceback, message events)', 'issues: created, resolved, assigned, ignored', 'the legacy webhook plugin'],
  handle({ payload }) {
    const p = obj(payload);
    const data = p.data;
    if (data) {
      if (obj(data).event) return [sentryEvent(obj(obj(data).event))];
      if (obj(data).issue) return [sentryIssue(text(p.action), obj(obj(data).issue), obj(p.actor))];
      throw new UnsupportedEventError('Sentry', `[${Object.keys(obj(data)).map((k) => `'${k}'`).join(', ')}]`);
    }
    const content = `New [issue](${text(p.url)}) (level: ${text(p.level).toUpperCase()}):\n\n\`\`\` quote\n${text(p.message)}\n\`\`\``;
    return [{ topic: text(p.project_name), content, event: 'legacy' }];
  },
};

// Jira: the topic is "<KEY>: <summary>", the message who did what to the linked issue (the reference's wording;
// people are named as Jira shows them — the reference's mapping of Jira accounts to users is not done).
const JIRA_IGNORED = new Set(['issuelink_created', 'issuelink_deleted', 'jira:version_released', 'jira:worklog_updated', 'sprint_closed', 'sprint_started', 'worklog_created', 'worklog_updated']);

function jiraIssue(p: P): { title: string; link: string | null } {
  const issue = obj(p.issue);
  const key = text(issue.key ?? issue.id);
  const title = `${key}: ${text(obj(issue.fields).summary ?? 'Upgrade Jira to get the issue title here.')}`;
  // The issue's page on its site (the payload gives its REST address).
  const link = typeof issue.self === 'string' && issue.key ? `${issue.self.replace(/\/rest\/api\/.*$/, '')}/browse/${key}` : null;
  return { title, link };
}

const person = (u: unknown) => text(obj(u).displayName ?? obj(u).name, 'user');

export const jira: Integration = {
  name: 'jira',
  displayName: 'Jira',
  events: ['jira:issue_created', 'jira:issue_updated (changes of fields, assignee)', 'jira:issue_deleted', 'comment_created', 'comment_updated', 'comment_deleted'],
  handle({ payload }) {
    const p = obj(payload);
    if (typeof p.webhookEvent !== 'string') throw new PayloadFieldError('webhookEvent');
    const event = p.webhookEvent;
    if (JIRA_IGNORED.has(event)) return [];
    const { title, link } = jiraIssue(p);
    const issue = link ? `[${title}](${link})` : title;
    const fields = obj(obj(p.issue).fields);
    const assignee = fields.assignee ? person(fields.assignee) : null;
    const blurb = assignee ? ` (assigned to ${assignee})` : '';
    const out = (content: string): HookMessage[] => [{ topic: title, content, event }];
    switch (event) {
      case 'jira:issue_created': {
        const priority = optText(obj(fields.priority).name);
        return out(`${person(p.user)} created ${issue}${priority ? ` with ${priority.toLowerCase()} priority` : ''}${blurb}.`);
      }
      case 'jira:issue_deleted':
        return out(`${person(p.user)} deleted ${issue}.`);
      case 'jira:issue_updated': {
        const lines = list(obj(p.changelog).items).map((c: P) => {
          const field = text(c.field);
          if (field === 'assignee') return `* Changed assignee to ${assignee ?? optText(c.toString) ?? 'no one'}`;
          const from = optText(c.fromString);
          return `* Changed ${field}${from ? ` from **${from}**` : ''} to **${optText(c.toString) ?? ''}**`;
        });
        if (!lines.length) return [];
        return out(`${person(p.user)} updated ${issue}${blurb}:\n\n${lines.join('\n')}`);
      }
      case 'comment_created':
      case 'comment_updated':
      case 'comment_deleted': {
        const c = obj(p.comment);
        const author = person(event === 'comment_updated' ? (c.updateAuthor ?? c.author) : c.author);
        const verb = { comment_created: 'commented on', comment_updated: 'updated their comment on', comment_deleted: 'deleted their comment on' }[event];
        const body = event === 'comment_deleted' ? `~~${text(c.body)}~~` : text(c.body);
        return out(`${author} ${verb} ${issue}\n\`\`\` quote\n${body}\n\`\`\``);
      }
    }
    throw new UnsupportedEventError('Jira', event);
  },
};
