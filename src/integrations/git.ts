// Messages shared by the code-hosting integrations (GitHub, GitLab), in the reference's wording so that an
// organization's channels read the same after moving: pushes with their commits, pull requests and issues.
import { text } from './types.js';

export const COMMITS_LIMIT = 20;
const COMMITTERS_SHOWN = 3;

export interface CommitInfo {
  name: string;
  sha: string;
  url: string;
  message: string;
}

export const shortSha = (sha: string) => sha.slice(0, 11);
export const branchTopic = (repo: string, branch: string) => `${repo} / ${branch}`;
export const itemTopic = (repo: string, kind: string, id: number, title: string) => `${repo} / ${kind} #${id} ${title}`;
export const quote = (message: string) => `\n~~~ quote\n${message}\n~~~`;

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

function commitList(commits: CommitInfo[]): string {
  let out = '';
  for (const c of commits.slice(0, COMMITS_LIMIT)) out += `* ${c.message.split('\n')[0]} ([${shortSha(c.sha)}](${c.url}))\n`;
  if (commits.length > COMMITS_LIMIT) out += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  return out.trimEnd();
}

// Most commits first, ties by name; past three committers the rest are "others".
function committers(commits: CommitInfo[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const c of commits) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (sorted.length <= COMMITTERS_SHOWN) return sorted;
  const others = sorted.slice(COMMITTERS_SHOWN).reduce((n, [, k]) => n + k, 0);
  return [...sorted.slice(0, COMMITTERS_SHOWN), ['others', others]];
}

export function pushMessage(user: string, compareUrl: string | null, branch: string, commits: CommitInfo[], opts: { deleted?: boolean; forced?: boolean } = {}): string {
  if (!commits.length) {
    const verb = opts.deleted ? 'deleted' : opts.forced ? 'force pushed' : 'pushed';
    return `${user} [${verb}](${compareUrl}) the branch ${branch}.`;
  }
  const n = commits.length;
  const verb = opts.forced ? 'force pushed' : 'pushed';
  const pushed = compareUrl ? `[${verb}](${compareUrl}) ${n} commit${n > 1 ? 's' : ''}` : `${verb} ${n} commit${n > 1 ? 's' : ''}`;
  const who = committers(commits);
  let head = `${user} ${pushed} to branch ${branch}.`;
  if (!(who.length === 1 && who[0][0] === user)) {
    const parts = who.map(([name, k]) => `${name} (${k})`);
    const names = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
    head += ` Commits by ${names}.`;
  }
  return `${head}\n\n${commitList(commits)}`.trimEnd();
}

export interface ItemMessage {
  user: string;
  action: string;
  url: string;
  kind: string; // "PR", "issue", "MR", "PR review comment", ...
  number?: number | null;
  title?: string | null; // shown when the URL chose the topic (the topic no longer names the item)
  message?: string | null;
  sourceBranch?: string | null;
  targetBranch?: string | null;
  assignees?: string[];
  // Assigned or unassigned: the user who was.
  assigneeUpdated?: string | null;
}

// "<user> <action> [<kind> #<n> <title>](<url>) from `a` to `b` (assigned to c):" and the quoted body.
export function itemMessage(m: ItemMessage): string {
  const id = m.number !== undefined && m.number !== null ? ` #${m.number}` : '';
  const label = m.title ? `${m.kind}${id} ${m.title}` : `${m.kind}${id}`;
  let out: string;
  if (m.assigneeUpdated) out = `${m.user} ${m.action} ${m.assigneeUpdated} ${m.action === 'unassigned' ? 'from' : 'to'} [${label}](${m.url})`;
  else out = `${m.user} ${m.action} [${label}](${m.url})`;
  const branches = Boolean(m.sourceBranch && m.targetBranch);
  if (branches) out += ` from \`${m.sourceBranch}\` to \`${m.targetBranch}\``;
  const assignees = m.assignees ?? [];
  if (assignees.length) {
    const names = assignees.length === 1 ? assignees[0] : `${assignees.slice(0, -1).join(', ')} and ${assignees[assignees.length - 1]}`;
    out += ` (assigned to ${names})`;
  }
  const punctuation = m.message ? ':' : '.';
  // A title that already ends in punctuation is not given more.
  if (assignees.length || branches || !m.title || !PUNCTUATION.has(m.title[m.title.length - 1])) out += punctuation;
  if (m.message) out += `\n${quote(m.message)}`;
  return out.trimEnd();
}

export const releaseMessage = (user: string, action: string, tag: string, name: string, url: string) =>
  `${user} ${action} release [${name}](${url}) for tag ${tag}.`;

export function tagMessage(user: string, tag: string, action: string, url?: string | null): string {
  const out = `${user} ${action} tag ${url ? `[${tag}](${url})` : tag}`;
  return PUNCTUATION.has(tag[tag.length - 1]) ? out : `${out}.`;
}

export const setupMessage = (integration: string, user?: string | null) => `${integration} webhook has been successfully configured${user ? ` by ${user}` : ''}.`;

// `branches` (a URL parameter): comma-separated names, `*` matching any run of characters; absent, every branch.
export function branchNotifiable(branch: string, branches: string | undefined): boolean {
  if (!branches) return true;
  return branches.split(',').map((b) => b.trim()).filter(Boolean).some((pattern) => globMatch(pattern, branch));
}

export function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*') && !pattern.includes('?')) return pattern === value;
  const re = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(value);
}

export const stripRef = (ref: unknown, prefix: string) => text(ref, 'ref').replace(new RegExp(`^${prefix}`), '');
