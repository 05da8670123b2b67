// Hostile input for the new parts of rendering — math and highlighted code — stays bounded in time and size,
// and math never produces links or scripts (KaTeX runs untrusted: no \href, \url, \htmlData; macro expansion
// and sizes limited). The safety corpus (markdown-safety.test.ts) covers the rest of Markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMessage, type RenderContext } from '../src/markdown/message.js';

const ctx: RenderContext = { usersByName: new Map(), usersById: new Map(), groupsByName: new Map(), channelsByName: new Map() };

let nested = 'x';
for (let i = 0; i < 300; i++) nested = `\\frac{${nested}}{y}`;
const letters = 'abcdefghijklmnopqrstuvwxyz';
// Each macro doubles the one before: 2^25 expansions of \\z.
const macroBomb = `\\def\\a{xx}${[...letters.slice(1)].map((l, i) => `\\def\\${l}{\\${letters[i]}\\${letters[i]}}`).join('')}\\z`;

const HOSTILE: [string, string][] = [
  ['math nested 300 deep, inline', `$$${nested}$$`],
  ['math nested 300 deep, display', `\`\`\`math\n${nested}\n\`\`\``],
  ['1,250 inline formulas', '$$x^2$$ '.repeat(1250)],
  ['exponential macros', `$$${macroBomb}$$`],
  ['huge sizes', '$$\\rule{100000em}{100000em} \\kern{100000em} \\Huge\\Huge x$$'],
  ['links and HTML in math', '$$\\href{javascript:alert(1)}{x} \\url{javascript:alert(1)} \\htmlData{x=1}{y} \\includegraphics{x.png}$$'],
  ['a 10,000-character Python block', `\`\`\`python\n${'def f(x): return [a + b * c for a, b, c in zip(xs, ys, zs)] # "\'\n'.repeat(160)}\`\`\``],
  ['a 10,000-character block of one string', `\`\`\`js\n"${'\\"'.repeat(4990)}\n\`\`\``],
  ['a 10,000-character block of open comments', `\`\`\`c\n${'/* '.repeat(3300)}\n\`\`\``],
  ['500 code blocks', '```python\nx = 1\n```\n'.repeat(500)],
  ['nested quote and spoiler fences around math', `${'```quote\n'.repeat(40)}$$x$$\n${'```spoiler s\n'.repeat(40)}`],
];

test('hostile math and code render within bounds, and math links nothing', () => {
  for (const [label, raw] of HOSTILE) {
    const input = raw.slice(0, 10_000);
    const started = performance.now();
    const html = renderMessage(input, ctx).html;
    const took = performance.now() - started;
    assert.ok(took < 3000, `${label}: ${Math.round(took)} ms`);
    assert.ok(html.length < 200 * input.length + 10_000, `${label}: ${html.length} characters of output for ${input.length}`);
    assert.doesNotMatch(html, /<(a|script|img|iframe)\b[^>]*javascript:|<script|href="javascript/i, label);
  }
  assert.match(renderMessage('$$\\href{https://x.example}{x}$$', ctx).html, /^<p><span class="katex">/);
  assert.doesNotMatch(renderMessage('$$\\href{https://x.example}{x}$$', ctx).html, /<a /);
});
