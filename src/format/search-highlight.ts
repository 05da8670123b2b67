// match_content and match_subject (§4.10): rendered content and escaped topic with the words that matched a
// search wrapped in <span class="highlight">. Only text between tags is touched, never markup or entities.
import { porterStem } from '../lib/stem.js';
import { escapeHtml } from '../lib/text.js';
import { foldWord } from '../store/search.js';


const PIECES = /(<[^>]*>)/;
const WORD_OR_ENTITY = /&#?\w+;|[\p{L}\p{N}\p{M}]+/gu;

// Words recur (a page of results repeats a few thousand of them), and stemming is most of highlighting's cost.
const stems = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= 100_000) stems.clear();
    stems.set(word, (stem = porterStem(foldWord(word))));
  }
  return stem;
}

export function highlight(html: string, wanted: Set<string>): string {
  if (!wanted.size) return html;
  return html
    .split(PIECES)
    .map((piece) =>
      piece.startsWith('<')
        ? piece
        : piece.replace(WORD_OR_ENTITY, (word) =>
            !word.startsWith('&') && wanted.has(stemOf(word)) ? `<span class="highlight">${word}</span>` : word,
          ),
    )
    .join('');
}

export function searchFields(renderedContent: string, topic: string, wanted: Set<string>) {
  return { match_content: highlight(renderedContent, wanted), match_subject: highlight(escapeHtml(topic), wanted) };
}
