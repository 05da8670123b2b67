// Emoji codes (lower-case hex code points joined by dashes, as the server names them) as text.
export function codeToChars(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));
  } catch {
    return '';
  }
}
