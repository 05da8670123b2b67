// Message texts for `parlance populate`: sentences of words drawn with a Zipf distribution, with links (10% of
// messages; some to images, some to uploaded files), code blocks (5%), mentions (the caller's 5%), emoji and
// lists now and then. The Markdown is rendered by the server's own renderer when the message is written.
import { int, pick, zipf, type Random } from './random.js';
import { DOMAINS, EMOJI, FILE_NAMES, IMAGE_NAMES, LANGUAGES, VOCABULARY } from './words.js';

const wordRank = zipf(VOCABULARY.length);
const word = (rnd: Random) => VOCABULARY[wordRank(rnd)];

export const LINK_SHARE = 0.1;
export const CODE_SHARE = 0.05;
export const MENTION_SHARE = 0.05;

function sentence(rnd: Random): string {
  const words = Array.from({ length: 3 + int(rnd, 12) }, () => word(rnd));
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  const x = rnd();
  return words.join(' ') + (x < 0.75 ? '.' : x < 0.95 ? '?' : '!');
}

function link(rnd: Random, realmId: number): { text: string; last: boolean } {
  const x = rnd();
  const n = 1 + int(rnd, 9999);
  // An image address ends the message: that is where the renderer looks for one (has:image).
  if (x < 0.15) return { text: `https://${pick(rnd, DOMAINS)}/images/${pick(rnd, IMAGE_NAMES)}-${n}.png`, last: true };
  if (x < 0.25) {
    const file = pick(rnd, FILE_NAMES);
    return { text: `[${file}](/user_uploads/${realmId}/${n.toString(16).padStart(4, '0')}/${file})`, last: false };
  }
  return { text: `https://${pick(rnd, DOMAINS)}/${word(rnd)}/${word(rnd)}/${n}`, last: false };
}

function codeBlock(rnd: Random): string {
  const lines = Array.from({ length: 1 + int(rnd, 4) }, () => {
    const [a, b] = [word(rnd), word(rnd)];
    return rnd() < 0.5 ? `const ${a}_${b} = await ${a}(${int(rnd, 1000)});` : `select ${a} from ${b} where id = ${int(rnd, 100000)};`;
  });
  return `\`\`\`${pick(rnd, LANGUAGES)}\n${lines.join('\n')}\n\`\`\``;
}

// `mention`: the full name of someone to mention (the caller decides who, and how often).
export function messageText(rnd: Random, realmId: number, mention?: string): string {
  const parts: string[] = [];
  const sentences = rnd() < 0.6 ? 1 : rnd() < 0.75 ? 2 : 3;
  for (let i = 0; i < sentences; i++) parts.push(sentence(rnd));
  if (mention) parts.splice(int(rnd, parts.length + 1), 0, `@**${mention}**`);
  if (rnd() < 0.03) parts.push(pick(rnd, EMOJI));
  if (rnd() < 0.03) parts.push(`\n- ${word(rnd)} ${word(rnd)}\n- ${word(rnd)} ${word(rnd)}`);
  let text = parts.join(' ');
  if (rnd() < CODE_SHARE) text += `\n${codeBlock(rnd)}`;
  if (rnd() < LINK_SHARE) {
    const l = link(rnd, realmId);
    text = l.last || rnd() < 0.5 ? `${text} ${l.text}` : `${l.text} ${text}`;
  }
  return text;
}
