// GitLab (X-Gitlab-Event): pushes, merge requests, issues, comments and pipelines, with the same topics and
// wording as GitHub's (src/integrations/git.ts). A `webhook_secret` on the bot must match X-Gitlab-Token.
import { branchNotifiable, branchTopic, itemMessage, itemTopic, pushMessage, stripRef, tagMessage, type CommitInfo } from './git.js';
import { list, num, obj, optText, text, UnsupportedEventError, type HookMessage, type Integration } from './types.js';

type P = Record<string, any>;
const repo = (p: P) => text(obj(p.project).name ?? obj(p.repository).name, 'project.name');
const user = (p: P) => text(obj(p.user).name ?? p.user_name, 'user');

const MR_ACTIONS: Record<string, string> = { open: 'created', reopen: 'reopened', update: 'updated', merge: 'merged', close: 'closed', approved: 'approved', unapproved: 'unapproved' };
const ISSUE_ACTIONS: Record<string, string> = { open: 'created', reopen: 'reopened', update: 'updated', close: 'closed' };

function push(p: P, branches: string | undefined): HookMessage[] {
  const ref = text(p.ref);
  if (!ref.startsWith('refs/heads/')) {
    const tag = stripRef(ref, 'refs/tags/');
    const removed = /^0+$/.test(text(p.after ?? ''));
    return [{ topic: repo(p), content: tagMessage(text(p.user_name), tag, removed ? 'removed' : 'pushed'), event: 'tag_push' }];
  }
  const branch = stripRef(ref, 'refs/heads/');
  if (!branchNotifiable(branch, branches)) return [];
  const commits: CommitInfo[] = list(p.commits).map((c: P) => ({ name: text(obj(c.author).name), sha: text(c.id), url: text(c.url), message: text(c.message) }));
  const deleted = /^0+$/.test(text(p.after));
  const compare = `${text(obj(p.project).web_url)}/compare/${text(p.before).slice(0, 7)}...${text(p.after).slice(0, 7)}`;
  return [{ topic: branchTopic(repo(p), branch), content: pushMessage(text(p.user_name), compare, branch, commits, { deleted }), event: 'push' }];
}

function mergeRequest(p: P, withTitle: boolean): HookMessage[] {
  const mr = obj(p.object_attributes);
  const action = MR_ACTIONS[text(mr.action ?? 'open')];
  if (!action) throw new UnsupportedEventError('GitLab', `merge_request:${text(mr.action)}`);
  const opened = action === 'created';
  const content = itemMessage({
    user: user(p), action, url: text(mr.url), kind: 'MR', number: num(mr.iid), title: withTitle ? text(mr.title) : null,
    message: opened ? optText(mr.description) : null,
    sourceBranch: opened ? text(mr.source_branch) : null, targetBranch: opened ? text(mr.target_branch) : null,
    assignees: opened ? list(p.assignees).map((a: P) => text(a.username)) : [],
  });
  return [{ topic: itemTopic(repo(p), 'MR', num(mr.iid), text(mr.title)), content, event: `merge_request_${action}` }];
}

function issue(p: P, withTitle: boolean): HookMessage[] {
  const i = obj(p.object_attributes);
  const action = ISSUE_ACTIONS[text(i.action ?? 'open')];
  if (!action) throw new UnsupportedEventError('GitLab', `issue:${text(i.action)}`);
  const content = itemMessage({
    user: user(p), action, url: text(i.url), kind: 'issue', number: num(i.iid), title: withTitle ? text(i.title) : null,
    message: action === 'created' ? optText(i.description) : null,
    assignees: action === 'created' ? list(p.assignees).map((a: P) => text(a.username)) : [],
  });
  return [{ topic: itemTopic(repo(p), 'issue', num(i.iid), text(i.title)), content, event: `issue_${action}` }];
}

function note(p: P, withTitle: boolean): HookMessage[] {
  const n = obj(p.object_attributes);
  const how = `[commented](${text(n.url)}) on`;
  const body = text(n.note);
  switch (n.noteable_type) {
    case 'MergeRequest': {
      const mr = obj(p.merge_request);
      const content = itemMessage({ user: user(p), action: how, url: text(n.url).split('#')[0], kind: 'MR', number: num(mr.iid), title: withTitle ? text(mr.title) : null, message: body });
      return [{ topic: itemTopic(repo(p), 'MR', num(mr.iid), text(mr.title)), content, event: 'note_merge_request' }];
    }
    case 'Issue': {
      const i = obj(p.issue);
      const content = itemMessage({ user: user(p), action: how, url: text(n.url).split('#')[0], kind: 'issue', number: num(i.iid), title: withTitle ? text(i.title) : null, message: body });
      return [{ topic: itemTopic(repo(p), 'issue', num(i.iid), text(i.title)), content, event: 'note_issue' }];
    }
    case 'Commit': {
      const c = obj(p.commit);
      const sha = text(c.id);
      return [{ topic: repo(p), content: `${user(p)} ${how} [${sha.slice(0, 11)}](${text(c.url)}):\n~~~ quote\n${body}\n~~~`, event: 'note_commit' }];
    }
  }
  throw new UnsupportedEventError('GitLab', `note:${text(n.noteable_type ?? '?')}`);
}

function pipeline(p: P): HookMessage[] {
  const pl = obj(p.object_attributes);
  const status = text(pl.status);
  // Every stage change is sent; only finished pipelines are worth a message.
  if (!['success', 'failed', 'canceled', 'skipped'].includes(status)) return [];
  const url = `${text(obj(p.project).web_url)}/-/pipelines/${num(pl.id)}`;
  const builds = list(p.builds).map((b: P) => `* ${text(b.name)} - stage ${text(b.stage)} - ${text(b.status)}`).join('\n');
  const content = `[Pipeline (${num(pl.id)})](${url}) of branch \`${text(pl.ref)}\` changed status to **${status}**.${builds ? `\n\n${builds}` : ''}`;
  return [{ topic: branchTopic(repo(p), text(pl.ref)), content, event: `pipeline_${status}` }];
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: 'GitLab',
  eventHeader: 'X-Gitlab-Event',
  events: ['Push Hook (`branches` filter)', 'Tag Push Hook', 'Merge Request Hook', 'Issue Hook', 'Note Hook (merge requests, issues, commits)', 'Pipeline Hook (finished pipelines)'],
  extraParams: '&branches=main',
  handle(req) {
    const p = obj(req.payload);
    const event = req.header('x-gitlab-event')!;
    switch (event) {
      case 'Push Hook':
      case 'Tag Push Hook':
        return push(p, req.param('branches'));
      case 'Merge Request Hook':
        return mergeRequest(p, req.userTopic);
      case 'Issue Hook':
      case 'Confidential Issue Hook':
        return issue(p, req.userTopic);
      case 'Note Hook':
      case 'Confidential Note Hook':
        return note(p, req.userTopic);
      case 'Pipeline Hook':
        return pipeline(p);
    }
    throw new UnsupportedEventError('GitLab', event);
  },
};
