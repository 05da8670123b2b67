// Markdown the server writes about a message it quotes on someone's behalf (message reports, reminders).

// A fence longer than any run of backticks in the text, so the text cannot close it (the reference's
// get_unused_fence); `min` is the fence the notice uses when the text has none.
export function fenceFor(text: string, min = 3): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(min, longest + 1));
}

// At most `max` code points, the cut marked.
export function truncated(content: string, max: number): string {
  const chars = [...content];
  if (chars.length <= max) return content;
  const marker = '\n[message truncated]';
  return chars.slice(0, max - marker.length).join('') + marker;
}

// The address of a direct message within its conversation (members: every participant's id).
export function directMessageUrl(realmUrl: string, members: number[], messageId: number): string {
  const slug = [...members].sort((a, b) => a - b).join(',');
  return `${realmUrl}/#narrow/dm/${slug}-${members.length > 2 ? 'group' : 'dm'}/near/${messageId}`;
}
