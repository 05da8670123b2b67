// match_content and match_subject (§4.10): rendered content and escaped topic with the words that matched a
// search wrapped in <span class="highlight">. Only text between tags is touched, never markup or entities.
import { porterStem } from '../lib/stem.js';
import { escapeHtml } from '../lib/text.js';
import { foldWord } from '../store/search.js';


const PIECES = /(<[^>]*>)/;
const WORD_OR_ENTITY = /&#?\w+;|[\p{L}\p{N}\p{M}]+/gu;

export function highlight(html: string, stems: Set<string>): string {
  if (!stems.size) return html;
  return html
    .split(PIECES)
    .map((piece) =>
      piece.startsWith('<')
        ? piece
        : piece.replace(WORD_OR_ENTITY, (word) =>
            !word.startsWith('&') && stems.has(porterStem(foldWord(word))) ? `<span class="highlight">${word}</span>` : word,
          ),
    )
    .join('');
}

export function searchFields(renderedContent: string, topic: string, stems: Set<string>) {
  return { match_content: highlight(renderedContent, stems), match_subject: highlight(escapeHtml(topic), stems) };
}
