// GitLab (X-Gitlab-Event): pushes, tags, merge requests, issues, comments, pipelines and jobs, in the reference's
// topics and wording (src/integrations/git.ts). With a topic in the URL, messages start with the project's link.
// A `webhook_secret` on the bot must match X-Gitlab-Token.
import { branchNotifiable, branchTopic, itemMessage, itemTopic, pushMessage, shortSha, stripRef, tagMessage, type CommitInfo } from './git.js';
import { list, num, obj, optText, text, UnsupportedEventError, type HookMessage, type HookRequest, type Integration } from './types.js';

type P = Record<string, any>;
const repo = (p: P) => text(obj(p.project).name, 'project.name');
const webUrl = (p: P) => text(obj(p.project).web_url, 'project.web_url');
const user = (p: P) => text(obj(p.user).name, 'user.name');
const EMPTY_SHA = /^0{40}$/;
const names = (v: unknown) => list(v).map((a: P) => text(a.name));

// The description without its hidden <!-- comments -->.
const description = (v: unknown) => {
  const d = optText(v);
  return d === null ? null : d.replace(/<!--[\s\S]*?-->/g, '').trimEnd() || null;
};

function push(p: P, req: HookRequest): [string, string] | null {
  const branch = stripRef(p.ref, 'refs/heads/');
  if (!branchNotifiable(branch, req.param('branches'))) return null;
  const topic = branchTopic(repo(p), branch);
  if (EMPTY_SHA.test(text(p.after))) return [topic, `${text(p.user_name)} deleted branch ${branch}.`];
  const commits: CommitInfo[] = list(p.commits).map((c: P) => ({ name: text(obj(c.author).name), sha: text(c.id), url: text(c.url), message: text(c.message) }));
  return [topic, pushMessage(text(p.user_name), `${webUrl(p)}/-/compare/${text(p.before)}...${text(p.after)}`, branch, commits)];
}

const MR_PAST: Record<string, string> = { close: 'closed', reopen: 'reopened', approval: 'approved', unapproval: 'unapproved' };

function mergeRequest(p: P, withTitle: boolean): string {
  const mr = obj(p.object_attributes);
  const action = text(mr.action);
  const base = { user: user(p), url: text(mr.url), kind: 'MR', number: num(mr.iid), title: withTitle ? text(mr.title) : null };
  const branches = { sourceBranch: text(mr.source_branch), targetBranch: text(mr.target_branch) };
  switch (action) {
    case 'open':
      return itemMessage({ ...base, action: 'created', ...branches, assignees: names(p.assignees), message: description(mr.description) });
    case 'update':
      if (mr.oldrev) return itemMessage({ ...base, action: 'added commit(s) to' });
      return itemMessage({ ...base, action: 'updated', assignees: names(p.assignees), message: 'description' in obj(p.changes) ? description(mr.description) : null });
    case 'merge':
      return itemMessage({ ...base, action: 'merged', ...branches });
    case 'close':
    case 'reopen':
    case 'approved':
    case 'unapproved':
    case 'approval':
    case 'unapproval':
      return itemMessage({ ...base, action: MR_PAST[action] ?? action });
  }
  throw new UnsupportedEventError('GitLab', `Merge Request Hook ${action}`);
}

function issue(p: P, withTitle: boolean): string {
  const i = obj(p.object_attributes);
  const action = text(i.action);
  const base = { user: user(p), url: text(i.url), kind: 'issue', number: num(i.iid), title: withTitle ? text(i.title) : null };
  if (action === 'open') return itemMessage({ ...base, action: 'created', assignees: names(p.assignees), message: description(i.description) });
  const past: Record<string, string> = { close: 'closed', reopen: 'reopened', update: 'updated' };
  if (!past[action]) throw new UnsupportedEventError('GitLab', `Issue Hook ${action}`);
  return itemMessage({ ...base, action: past[action] });
}

function note(p: P, withTitle: boolean): [string, string] {
  const n = obj(p.object_attributes);
  const how = `[commented](${text(n.url)}) on`;
  const body = text(n.note);
  const on = (item: P, kind: string, url: string) => itemMessage({ user: user(p), action: how, url, kind, number: num(item.iid ?? item.id), title: withTitle ? text(item.title) : null, message: body });
  switch (n.noteable_type) {
    case 'MergeRequest': {
      const mr = obj(p.merge_request);
      return [itemTopic(repo(p), 'MR', num(mr.iid), text(mr.title)), on(mr, 'MR', text(mr.url ?? `${webUrl(p)}/-/merge_requests/${num(mr.iid)}`))];
    }
    case 'Issue': {
      const i = obj(p.issue);
      return [itemTopic(repo(p), 'issue', num(i.iid), text(i.title)), on(i, 'issue', text(i.url ?? `${webUrl(p)}/-/issues/${num(i.iid)}`))];
    }
    case 'Snippet': {
      const s = obj(p.snippet);
      return [itemTopic(repo(p), 'snippet', num(s.id), text(s.title)), on(s, 'snippet', `${webUrl(p)}/-/snippets/${num(s.id)}`)];
    }
    case 'Commit': {
      const c = obj(p.commit);
      return [repo(p), `${user(p)} ${how} [${shortSha(text(c.id))}](${text(c.url)}):\n~~~ quote\n${body}\n~~~`];
    }
  }
  throw new UnsupportedEventError('GitLab', `Note Hook ${text(n.noteable_type ?? '?')}`);
}

const STATUS_ACTION: Record<string, string> = { pending: 'was created', created: 'was created', running: 'started' };

function pipeline(p: P): [string, string] {
  const pl = obj(p.object_attributes);
  const status = text(pl.status);
  const base = webUrl(p);
  const builds = list(p.builds).map((b: P) => {
    const row = `* [${text(b.name)}](${base}/-/jobs/${num(b.id)}) - ${text(b.status)}`;
    const file = optText(obj(b.artifacts_file).filename);
    return file ? `${row}\n  * built artifact: *${file}* [[Browse](${base}/-/jobs/${num(b.id)}/artifacts/browse)|[Download](${base}/-/jobs/${num(b.id)}/artifacts/download)]` : row;
  });
  const action = STATUS_ACTION[status] ?? `changed status to ${status}`;
  return [branchTopic(repo(p), stripRef(pl.ref, 'refs/heads/')), `[Pipeline (${num(pl.id)})](${base}/-/pipelines/${num(pl.id)}) ${action} with build(s):\n${builds.join('\n')}.`];
}

function job(p: P): [string, string] {
  const status = text(p.build_status);
  const action = STATUS_ACTION[status] ?? `changed status to ${status}`;
  return [branchTopic(text(obj(p.repository).name), stripRef(p.ref, 'refs/heads/')), `Build ${text(p.build_name)} from ${text(p.build_stage)} stage ${action}.`];
}

function message(p: P, event: string, req: HookRequest): [string, string] | null {
  switch (event) {
    case 'Push Hook':
    case 'System Hook':
      return push(p, req);
    case 'Tag Push Hook':
      return [repo(p), tagMessage(text(p.user_name), stripRef(p.ref, 'refs/tags/'), p.checkout_sha ? 'pushed' : 'removed')];
    case 'Merge Request Hook': {
      const mr = obj(p.object_attributes);
      return [itemTopic(repo(p), 'MR', num(mr.iid), text(mr.title)), mergeRequest(p, req.userTopic)];
    }
    case 'Issue Hook':
    case 'Confidential Issue Hook': {
      const i = obj(p.object_attributes);
      return [itemTopic(repo(p), 'issue', num(i.iid), text(i.title)), issue(p, req.userTopic)];
    }
    case 'Note Hook':
    case 'Confidential Note Hook':
      return note(p, req.userTopic);
    case 'Pipeline Hook':
      return pipeline(p);
    case 'Job Hook':
    case 'Build Hook':
      return job(p);
    case 'Wiki Page Hook': {
      const w = obj(p.object_attributes);
      const verb = { create: 'created', update: 'updated', delete: 'deleted' }[text(w.action)];
      if (!verb) throw new UnsupportedEventError('GitLab', `Wiki Page Hook ${text(w.action)}`);
      return [repo(p), `${user(p)} ${verb} [wiki page "${text(w.title)}"](${text(w.url)}).`];
    }
    case 'Test Hook':
      return [repo(p), `Webhook for **${repo(p)}** has been configured successfully! :tada:`];
  }
  throw new UnsupportedEventError('GitLab', event);
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: 'GitLab',
  eventHeader: 'X-Gitlab-Event',
  events: ['Push Hook (`branches` filter)', 'Tag Push Hook', 'Merge Request Hook', 'Issue Hook', 'Note Hook (merge requests, issues, commits, snippets)', 'Pipeline Hook', 'Job Hook', 'Wiki Page Hook', 'Test Hook'],
  extraParams: '&branches=main',
  handle(req) {
    const p = obj(req.payload);
    const event = req.header('x-gitlab-event')!;
    const out = message(p, event, req);
    if (!out) return [];
    // With every event in one topic, each message says which project it is about.
    const content = req.userTopic ? `[[${repo(p)}](${webUrl(p)})] ${out[1]}` : out[1];
    const m: HookMessage = { topic: out[0], content, event: event.replace(/ Hook$/, '').toLowerCase().replace(/ /g, '_') };
    return [m];
  },
};
