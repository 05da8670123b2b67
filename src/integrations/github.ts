// GitHub (X-GitHub-Event): the events teams follow in chat, in the reference's topics and wording. Sender names
// are GitHub logins (the reference's mapping of logins to users through a profile field is not done).
import { branchNotifiable, branchTopic, itemMessage, itemTopic, pushMessage, quote, releaseMessage, setupMessage, shortSha, stripRef, tagMessage, type CommitInfo } from './git.js';
import { num, obj, optText, text, UnsupportedEventError, type HookMessage, type HookRequest, type Integration } from './types.js';

// Known events that deliberately post nothing (as the reference's IGNORED_EVENTS).
const IGNORED_EVENTS = new Set(['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'repository_vulnerability_alert', 'workflow_job']);
const IGNORED_PR_ACTIONS = new Set(['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled', 'enqueued', 'dequeued']);

type P = Record<string, any>;
const repoName = (p: P) => text(obj(p.repository).name, 'repository.name');
const sender = (p: P) => text(obj(p.sender).login, 'sender.login');

function pullRequest(p: P, action: string, withTitle: boolean): string {
  const pr = obj(p.pull_request);
  const common = { user: sender(p), url: text(pr.html_url), kind: 'PR', number: num(pr.number), title: withTitle ? text(pr.title) : null };
  switch (action) {
    case 'opened':
    case 'reopened':
    case 'synchronize':
    case 'edited': {
      const shown = action === 'synchronize' ? 'updated' : action;
      const body = 'body' in obj(p.changes) || action === 'opened' ? optText(pr.body) : null;
      const branches = action === 'opened' ? { sourceBranch: text(obj(pr.head).label), targetBranch: text(obj(pr.base).label) } : {};
      const assignee = obj(pr.assignee).login;
      return itemMessage({ ...common, action: shown, message: body, ...branches, assignees: assignee ? [text(assignee)] : [] });
    }
    case 'assigned':
    case 'unassigned':
      return itemMessage({ ...common, action, assigneeUpdated: optText(obj(p.assignee).login) });
    case 'closed':
      return itemMessage({ ...common, action: pr.merged ? 'merged' : 'closed without merge' });
    case 'review_requested': {
      const reviewer = p.requested_reviewer ? `[${text(p.requested_reviewer.login)}](${text(p.requested_reviewer.html_url)})` : `[${text(obj(p.requested_team).name)}](${text(obj(p.requested_team).html_url)})`;
      const label = withTitle ? `PR #${common.number} ${text(pr.title)}` : `PR #${common.number}`;
      return `**${common.user}** requested ${reviewer} for a review on [${label}](${common.url}).`;
    }
    case 'ready_for_review':
      return `**${common.user}** has marked [PR #${common.number}](${common.url}) as ready for review.`;
    case 'locked':
      return `${common.user} has locked [PR #${common.number}](${common.url}) as ${optText(pr.active_lock_reason)} and limited conversation to collaborators.`;
    case 'unlocked':
      return `${common.user} has unlocked [PR #${common.number}](${common.url}).`;
    case 'auto_merge_enabled':
    case 'auto_merge_disabled':
      return `${common.user} has ${action === 'auto_merge_enabled' ? 'enabled' : 'disabled'} auto merge for [PR #${common.number}](${common.url}).`;
  }
  throw new UnsupportedEventError('GitHub', `pull_request:${action}`);
}

function issue(p: P, action: string, withTitle: boolean): string {
  const i = obj(p.issue);
  const common = { user: sender(p), url: text(i.html_url), number: num(i.number), title: withTitle ? text(i.title) : null };
  if (action === 'labeled' || action === 'unlabeled') {
    const label = withTitle ? `Issue #${common.number} ${text(i.title)}` : `Issue #${common.number}`;
    const [verb, prep] = action === 'labeled' ? ['added', 'to'] : ['removed', 'from'];
    return `[${common.user}](${text(obj(p.sender).html_url)}) ${verb} the ${text(obj(p.label).name)} label ${prep} [${label}](${common.url}).`;
  }
  if (action === 'milestoned' || action === 'demilestoned') {
    const label = withTitle ? `issue #${common.number} ${text(i.title)}` : `issue #${common.number}`;
    const [verb, prep] = action === 'milestoned' ? ['added', 'to'] : ['removed', 'from'];
    const m = obj(p.milestone);
    return `[${common.user}](${text(obj(p.sender).html_url)}) ${verb} milestone [${text(m.title)}](${text(m.html_url)}) ${prep} [${label}](${common.url}).`;
  }
  const assignment = action === 'assigned' || action === 'unassigned';
  return itemMessage({
    ...common, kind: 'issue', action,
    message: assignment ? null : optText(i.body),
    assigneeUpdated: p.assignee ? text(obj(p.assignee).login) : null,
  });
}

function comment(p: P, withTitle: boolean): string {
  const action = text(p.action);
  const how = `${action === 'created' ? '[commented]' : `${action} a [comment]`}(${text(obj(p.comment).html_url)}) on`;
  const i = obj(p.issue);
  return itemMessage({
    user: sender(p), action: how, url: text(i.html_url), number: num(i.number), message: text(obj(p.comment).body),
    title: withTitle ? text(i.title) : null, kind: 'pull_request' in i ? 'PR' : 'issue',
  });
}

function push(p: P, branches: string | undefined): HookMessage[] | string {
  const ref = text(p.ref, 'ref');
  if (ref.startsWith('refs/heads/gh-readonly-queue/')) return [];
  if (!ref.startsWith('refs/heads/')) return tagMessage(sender(p), stripRef(ref, 'refs/tags/'), p.created ? 'pushed' : 'removed');
  const branch = stripRef(ref, 'refs/heads/');
  if (!branchNotifiable(branch, branches)) return [];
  const commits: CommitInfo[] = (Array.isArray(p.commits) ? p.commits : []).map((c: P) => ({
    name: text(obj(c.author).username || obj(c.author).name, 'commit author'),
    sha: text(c.id),
    url: text(c.url),
    message: text(c.message),
  }));
  return pushMessage(sender(p), text(p.compare), branch, commits, { deleted: Boolean(p.deleted), forced: Boolean(p.forced) });
}

function topicFor(p: P, event: string, kind: string): string {
  if (kind === 'push') return branchTopic(repoName(p), stripRef(p.ref, 'refs/heads/'));
  if (event === 'pull_request' || event.startsWith('pull_request_review')) {
    const pr = obj(p.pull_request);
    return itemTopic(repoName(p), 'PR', num(pr.number), text(pr.title));
  }
  if (event === 'issues' || event === 'issue_comment') {
    const i = obj(p.issue);
    return itemTopic(repoName(p), 'pull_request' in i ? 'PR' : 'issue', num(i.number), text(i.title));
  }
  if (event === 'check_run' || event === 'workflow_run') return `${repoName(p)} / checks`;
  if (event === 'ping' && !p.repository) return text(obj(p.organization).login);
  return repoName(p);
}

function body(p: P, event: string, req: HookRequest): HookMessage[] | string {
  const action = typeof p.action === 'string' ? p.action : '';
  switch (event) {
    case 'ping':
      return setupMessage('GitHub', sender(p));
    case 'push':
      return push(p, req.param('branches'));
    case 'pull_request':
      if (IGNORED_PR_ACTIONS.has(action)) return [];
      return pullRequest(p, action, req.userTopic);
    case 'issues':
      return issue(p, action, req.userTopic);
    case 'issue_comment':
      return comment(p, req.userTopic);
    case 'pull_request_review': {
      // GitHub follows a review with an empty "edited" event: posting it would say the same twice.
      if (action === 'edited' && !Object.keys(obj(p.changes)).length) return [];
      const pr = obj(p.pull_request);
      return itemMessage({
        user: sender(p), action: 'submitted', url: text(obj(p.review).html_url), kind: 'PR review',
        title: req.userTopic ? `for #${num(pr.number)} ${text(pr.title)}` : null, message: optText(obj(p.review).body),
      });
    }
    case 'pull_request_review_comment': {
      const pr = obj(p.pull_request);
      return itemMessage({
        user: sender(p), action, url: text(obj(p.comment).html_url), kind: 'PR review comment',
        title: req.userTopic ? `on #${num(pr.number)} ${text(pr.title)}` : null, message: action === 'created' ? text(obj(p.comment).body) : null,
      });
    }
    case 'release': {
      const r = obj(p.release);
      return releaseMessage(sender(p), action, text(r.tag_name), text(r.name || r.tag_name), text(r.html_url));
    }
    case 'check_run': {
      const run = obj(p.check_run);
      if (run.status !== 'completed') return [];
      const sha = text(run.head_sha);
      return `Check [${text(run.name)}](${text(run.html_url)}) ${text(run.status)} (${text(run.conclusion)}). ([${shortSha(sha)}](${text(obj(p.repository).html_url)}/commit/${sha}))`;
    }
    case 'workflow_run': {
      // Not in the reference: a finished workflow, like a finished check.
      const run = obj(p.workflow_run);
      if (action !== 'completed') return [];
      const sha = text(run.head_sha);
      return `Workflow [${text(run.name)}](${text(run.html_url)}) completed (${text(run.conclusion)}) on branch ${text(run.head_branch)}. ([${shortSha(sha)}](${text(obj(p.repository).html_url)}/commit/${sha}))`;
    }
    case 'commit_comment': {
      const c = obj(p.comment);
      const url = text(c.html_url);
      const sha = text(c.commit_id);
      return `${sender(p)} [commented](${url}) on [${shortSha(sha)}](${url.split('#')[0]}):${quote(text(c.body))}`;
    }
    case 'create':
    case 'delete':
      return `${sender(p)} ${event === 'create' ? 'created' : 'deleted'} ${text(p.ref_type)} ${text(p.ref)}.`;
    case 'fork':
      return `${sender(p)} forked [${text(obj(p.forkee).name)}](${text(obj(p.forkee).html_url)}).`;
    case 'watch':
      return `${sender(p)} starred the repository [${text(obj(p.repository).full_name)}](${text(obj(p.repository).html_url)}).`;
    case 'star':
      return `[${sender(p)}](${text(obj(p.sender).html_url)}) ${action === 'created' ? 'starred' : 'unstarred'} the repository [${text(obj(p.repository).full_name)}](${text(obj(p.repository).html_url)}).`;
    case 'public':
      return `${sender(p)} made the repository [${text(obj(p.repository).full_name)}](${text(obj(p.repository).html_url)}) public.`;
    case 'status': {
      const state = text(p.state);
      return `[${shortSha(text(p.sha))}](${text(obj(p.commit).html_url)}) changed its status to ${p.target_url ? `[${state}](${text(p.target_url)})` : state}.`;
    }
  }
  if (IGNORED_EVENTS.has(event)) return [];
  throw new UnsupportedEventError('GitHub', action ? `${event}:${action}` : event);
}

export const github: Integration = {
  name: 'github',
  displayName: 'GitHub',
  eventHeader: 'X-GitHub-Event',
  events: ['ping', 'push (commits, tags; `branches` filter)', 'pull_request', 'issues', 'issue_comment', 'pull_request_review', 'pull_request_review_comment', 'release', 'check_run', 'workflow_run', 'commit_comment', 'create', 'delete', 'fork', 'watch', 'star', 'public', 'status'],
  extraParams: '&branches=main,release-*',
  handle(req) {
    const event = req.header('x-github-event')!;
    const p = obj(req.payload);
    // A comment "edited" without a change of its text (GitHub sends those) says nothing new.
    if (event.includes('comment') && p.action === 'edited' && obj(obj(p.changes).body).from === obj(p.comment).body) return [];
    const out = body(p, event, req);
    if (Array.isArray(out)) return out;
    const kind = event === 'push' ? (text(p.ref).startsWith('refs/heads/') ? 'push' : 'push_tags') : event;
    return [{ topic: topicFor(p, event, kind), content: out, event: kind === 'push' ? 'push_commits' : kind }];
  },
};
