// The narrow a queue was registered with, applied to message events. An empty narrow matches everything.
export type Narrow = [string, string][];

const norm = (s: unknown) => String(s ?? '').toLowerCase();

function term(op: string, operand: string, m: Record<string, unknown>, flags: string[]): boolean {
  switch (op) {
    case 'stream':
    case 'channel':
      return m.type === 'stream' && (norm(m.display_recipient) === norm(operand) || String(m.stream_id) === operand);
    case 'topic':
    case 'subject':
      return m.type === 'stream' && norm(m.subject) === norm(operand);
    case 'sender':
      return norm(m.sender_email) === norm(operand) || String(m.sender_id) === operand;
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return m.type === 'private';
        case 'starred':
        case 'mentioned':
          return flags.includes(operand) || (operand === 'mentioned' && flags.some((f) => f.endsWith('wildcard_mentioned')));
        case 'unread':
          return !flags.includes('read');
        case 'resolved':
          return m.type === 'stream' && String(m.subject ?? '').startsWith('✔ ');
        default:
          return false;
      }
    case 'dm':
    case 'pm-with': {
      if (m.type !== 'private') return false;
      const wanted = new Set(operand.split(',').map((s) => norm(s.trim())));
      const others = (m.display_recipient as { email: string; id: number }[]).filter((r) => r.id !== m.sender_id || (m.display_recipient as unknown[]).length === 1);
      return others.length === wanted.size && others.every((r) => wanted.has(norm(r.email)) || wanted.has(String(r.id)));
    }
    case 'dm-including':
      return m.type === 'private' && (m.display_recipient as { email: string; id: number }[]).some((r) => norm(r.email) === norm(operand) || String(r.id) === operand);
    case 'search':
      return norm(m.content).includes(norm(operand));
    default:
      return false;
  }
}

export function matchesNarrow(narrow: Narrow, message: Record<string, unknown>, flags: string[]): boolean {
  return narrow.every(([op, operand]) => {
    const negated = op.startsWith('-');
    return term(negated ? op.slice(1) : op, operand, message, flags) !== negated;
  });
}
