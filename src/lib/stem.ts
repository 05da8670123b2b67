// The Porter stemming algorithm (M. F. Porter, 1980, with the "bli" and "logi" revisions of his reference
// implementation), as SQLite's FTS5 `porter` tokenizer applies it. Search highlighting stems the words of a
// message the same way the index did, so the words it marks are the ones that matched.

const c = '[^aeiou]';
const v = '[aeiouy]';
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
const mGt0 = new RegExp(`^(${C})?${V}${C}`);
const mEq1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
const mGt1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
const hasVowel = new RegExp(`^(${C})?${v}`);
const cvc = new RegExp(`^${C}${v}[^aeiouwxy]$`);

const STEP2: Record<string, string> = {
  ational: 'ate', tional: 'tion', enci: 'ence', anci: 'ance', izer: 'ize', bli: 'ble', alli: 'al', entli: 'ent', eli: 'e',
  ousli: 'ous', ization: 'ize', ation: 'ate', ator: 'ate', alism: 'al', iveness: 'ive', fulness: 'ful', ousness: 'ous',
  aliti: 'al', iviti: 'ive', biliti: 'ble', logi: 'log',
};
const STEP3: Record<string, string> = { icate: 'ic', ative: '', alize: 'al', iciti: 'ic', ical: 'ic', ful: '', ness: '' };

const STEP2_RE = new RegExp(`^(.+?)(${Object.keys(STEP2).join('|')})$`);
const STEP3_RE = new RegExp(`^(.+?)(${Object.keys(STEP3).join('|')})$`);
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;

// `word` is lower case; words that are not plain ASCII letters, or are very short or long, pass unchanged.
export function porterStem(word: string): string {
  if (word.length < 3 || word.length > 64 || !/^[a-z]+$/.test(word)) return word;
  // A leading y is a consonant.
  let w = word[0] === 'y' ? `Y${word.slice(1)}` : word;
  let m: RegExpExecArray | null;

  if ((m = /^(.+?)(ss|i)es$/.exec(w))) w = m[1] + m[2];
  else if ((m = /^(.+?)([^s])s$/.exec(w))) w = m[1] + m[2];

  if ((m = /^(.+?)eed$/.exec(w))) {
    if (mGt0.test(m[1])) w = w.slice(0, -1);
  } else if ((m = /^(.+?)(ed|ing)$/.exec(w)) && hasVowel.test(m[1])) {
    w = m[1];
    if (/(at|bl|iz)$/.test(w)) w += 'e';
    else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
    else if (cvc.test(w)) w += 'e';
  }

  if ((m = /^(.+?)y$/.exec(w)) && hasVowel.test(m[1])) w = `${m[1]}i`;

  if ((m = STEP2_RE.exec(w)) && mGt0.test(m[1])) w = m[1] + STEP2[m[2]];
  if ((m = STEP3_RE.exec(w)) && mGt0.test(m[1])) w = m[1] + STEP3[m[2]];

  if ((m = STEP4_RE.exec(w))) {
    if (mGt1.test(m[1])) w = m[1];
  } else if ((m = /^(.+?)([st])ion$/.exec(w)) && mGt1.test(m[1] + m[2])) {
    w = m[1] + m[2];
  }

  if ((m = /^(.+?)e$/.exec(w)) && (mGt1.test(m[1]) || (mEq1.test(m[1]) && !cvc.test(m[1])))) w = m[1];
  if (/ll$/.test(w) && mGt1.test(w)) w = w.slice(0, -1);

  return w[0] === 'Y' ? `y${w.slice(1)}` : w;
}
