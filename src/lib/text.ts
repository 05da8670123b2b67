// Limits in the contract count Unicode code points, not UTF-16 units.
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export function hasNullByte(s: string): boolean {
  return s.includes('\u0000');
}

// For any value placed in HTML text or a quoted attribute.
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// The reference server's rule for printable text (zerver/lib/string_validation.py): no control character (Cc), no
// surrogate (Cs, which only a lone one can be here) and none of the 66 non-characters. Returns the position of
// the first offender in code points counted from 1, as the reference reports it, or 0 when there is none.
export function invalidCharacterPosition(s: string): number {
  let position = 0;
  for (const ch of s) {
    position++;
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) {
      return position;
    }
  }
  return 0;
}

// The name clients show for the empty topic (the reference's "general chat"); a fact of the API, so every layer
// may use it.
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
