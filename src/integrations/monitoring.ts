// Sentry (issue and alert webhooks) and Jira (issue events): the topic names the issue, the message what
// happened, with a link back.
import { obj, optText, text, UnsupportedEventError, type HookMessage, type Integration } from './types.js';

type P = Record<string, any>;

// Sentry's internal integrations say what they carry in Sentry-Hook-Resource; legacy alert rules send the event
// itself (`event` at the top, no header).
export const sentry: Integration = {
  name: 'sentry',
  displayName: 'Sentry',
  events: ['issue (created, resolved, assigned, ignored)', 'event_alert', 'legacy alert-rule webhooks'],
  handle({ payload, header }) {
    const p = obj(payload);
    const resource = header('sentry-hook-resource');
    if (resource === 'issue') {
      const issue = obj(obj(p.data).issue);
      const action = text(p.action);
      const title = text(issue.title);
      const url = text(issue.web_url ?? issue.permalink);
      const assignee = issue.assignedTo ? text(obj(issue.assignedTo).name ?? obj(issue.assignedTo).email) : 'No one';
      const head: Record<string, string> = { created: '**New issue created**', resolved: '**Issue resolved**', assigned: '**Issue assigned**', ignored: '**Issue ignored**', archived: '**Issue archived**', unresolved: '**Issue reopened**' };
      if (!head[action]) throw new UnsupportedEventError('Sentry', `issue:${action}`);
      const details = action === 'created' ? `\n\`\`\`quote\n**level:** ${text(issue.level)}\n**timestamp:** ${text(issue.firstSeen ?? '')}\n**assignee:** ${assignee}\n\`\`\`` : action === 'assigned' ? ` to ${assignee}` : '';
      return [{ topic: title, content: `${head[action]}: [${title}](${url})${details}`, event: `issue:${action}` }];
    }
    if (resource === 'event_alert' || (!resource && p.event)) {
      const ev = obj(resource ? obj(p.data).event : p.event);
      const title = text(ev.title ?? p.message ?? p.culprit);
      const url = text(ev.web_url ?? p.url);
      const level = text(ev.level ?? p.level ?? 'error');
      const rule = obj(p.data).triggered_rule ?? p.triggering_rules?.[0];
      const lines = [`**level:** ${level}`, ...(ev.culprit ? [`**culprit:** ${text(ev.culprit)}`] : []), ...(rule ? [`**rule:** ${text(rule)}`] : [])];
      return [{ topic: title, content: `**New ${level === 'error' ? 'exception' : 'event'}:** [${title}](${url})\n\`\`\`quote\n${lines.join('\n')}\n\`\`\``, event: 'event_alert' }];
    }
    if (resource === 'installation' || resource === 'metric_alert' || resource === 'comment') return [];
    throw new UnsupportedEventError('Sentry', resource ?? 'unknown');
  },
};

function jiraIssueLink(p: P): { key: string; summary: string; link: string } {
  const issue = obj(p.issue);
  const key = text(issue.key);
  const self = text(issue.self);
  // The browse link of the issue on its site (the payload gives the REST address).
  const base = self.replace(/\/rest\/api\/.*$/, '');
  return { key, summary: text(obj(issue.fields).summary), link: `${base}/browse/${key}` };
}

export const jira: Integration = {
  name: 'jira',
  displayName: 'Jira',
  events: ['jira:issue_created', 'jira:issue_updated (changes, comments)', 'jira:issue_deleted', 'comment_created', 'comment_updated'],
  handle({ payload }) {
    const p = obj(payload);
    const event = text(p.webhookEvent ?? '');
    const who = text(obj(p.user).displayName ?? obj(obj(p.comment).author).displayName ?? 'Someone');
    if (!p.issue) {
      if (event.startsWith('jira:') || event.startsWith('comment_')) throw new UnsupportedEventError('Jira', event);
      return []; // project, sprint, worklog events: nothing teams follow here
    }
    const { key, summary, link } = jiraIssueLink(p);
    const topic = `${key}: ${summary}`;
    const item = `[${key}](${link})`;
    const fields = obj(obj(p.issue).fields);
    const out = (content: string): HookMessage[] => [{ topic, content, event }];
    switch (event) {
      case 'jira:issue_created': {
        const priority = optText(obj(fields.priority).name);
        const assignee = optText(obj(fields.assignee).displayName);
        const details = `${priority ? ` with priority ${priority}` : ''}${assignee ? `, assigned to **${assignee}**` : ''}`;
        const description = optText(fields.description);
        return out(`**${who}** created ${item}${details}${description ? `:\n\n\`\`\` quote\n${description}\n\`\`\`` : '.'}`);
      }
      case 'jira:issue_deleted':
        return out(`**${who}** deleted ${item}.`);
      case 'jira:issue_updated':
      case 'comment_created':
      case 'comment_updated': {
        const comment = p.comment ? optText(obj(p.comment).body) : null;
        const changes = (Array.isArray(obj(p.changelog).items) ? p.changelog.items : []).map((c: P) => `* Changed ${text(c.field)} from **${optText(c.fromString) ?? ''}** to **${optText(c.toString) ?? ''}**`);
        if (!comment && !changes.length) return [];
        const verb = comment ? (event === 'comment_updated' ? 'updated a comment on' : 'commented on') : 'updated';
        return out(`**${who}** ${verb} ${item}${comment ? `:\n\n\`\`\` quote\n${comment}\n\`\`\`` : ':\n\n'}${changes.length ? `${comment ? '\n' : ''}${changes.join('\n')}` : ''}`.trimEnd());
      }
    }
    throw new UnsupportedEventError('Jira', event);
  },
};
