// The `content_html_diff` of an edit-history snapshot: the new rendering with the words that changed marked, as
// the reference server marks them (`highlight_text_inserted` / `highlight_text_deleted` spans in a <div>).
// The diff runs over tokens (a tag, or a word with the spaces after it), so markup is never split. The output
// keeps the new HTML's tags; deleted text is shown in place, without the tags that surrounded it.

const TOKEN = /<[^>]*>|[^<\s]+\s*|\s+/g;

function tokenize(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

const isTag = (t: string) => t.startsWith('<');

// Longest common subsequence over the middle part (common prefix and suffix removed first). Above this many
// cells the middle is reported as replaced wholesale, which keeps a pathological edit cheap.
const MAX_CELLS = 4_000_000;

type Op = { kind: 'equal' | 'insert' | 'delete'; token: string };

function diffTokens(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: Op[] = a.slice(0, start).map((token) => ({ kind: 'equal', token }));
  const tail: Op[] = a.slice(endA).map((token) => ({ kind: 'equal', token }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  const middle: Op[] = [];
  if (n * m > MAX_CELLS) {
    middle.push(...midB.map((token): Op => ({ kind: 'insert', token })), ...midA.map((token): Op => ({ kind: 'delete', token })));
    return [...head, ...middle, ...tail];
  }
  // lcs[i][j]: length of the LCS of midA[i..] and midB[j..], in one flat array.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[at(i, j)] = midA[i] === midB[j] ? lcs[at(i + 1, j + 1)] + 1 : Math.max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      middle.push({ kind: 'equal', token: midA[i] });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[at(i, j + 1)] >= lcs[at(i + 1, j)])) {
      middle.push({ kind: 'insert', token: midB[j++] });
    } else {
      middle.push({ kind: 'delete', token: midA[i++] });
    }
  }
  return [...head, ...middle, ...tail];
}

const span = (cls: string, text: string) => `<span class="${cls}">${text}</span>`;

export function highlightHtmlDifferences(before: string, after: string): string {
  const ops = diffTokens(tokenize(before), tokenize(after));
  let out = '';
  // Runs of changed text are gathered so that each run becomes one span; insertions of a hunk come before its
  // deletions, as in the reference rendering.
  let inserted = '';
  let deleted = '';
  const flush = () => {
    if (inserted.trim()) out += span('highlight_text_inserted', inserted);
    else out += inserted;
    if (deleted.trim()) out += span('highlight_text_deleted', deleted);
    inserted = '';
    deleted = '';
  };
  for (const op of ops) {
    if (op.kind === 'equal') {
      flush();
      out += op.token;
    } else if (isTag(op.token)) {
      // Inserted tags belong to the new structure and are kept; deleted ones are dropped.
      if (op.kind === 'insert') {
        flush();
        out += op.token;
      }
    } else if (op.kind === 'insert') inserted += op.token;
    else deleted += op.token;
  }
  flush();
  return `<div>${out}</div>`;
}
