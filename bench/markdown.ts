// M1: rendering cost. A 10 KB message as a long technical message has it — prose with mentions, links, emoji
// and a linkifier, a list, a quote, a table, three highlighted code blocks and four formulas (KaTeX) — is
// rendered in-process after a warm-up, as in a running server; each run changes a number in every code block
// and formula, so no cache of repeated text helps. CPU time is the figure (the machine is shared; wall time
// is shown beside it). Then hostile input (deeply nested math, a huge code block, the safety corpus's worst
// cases) must stay bounded. The renderer does not touch the database, so one run serves both databases.
// Usage: node --import tsx bench/markdown.ts [--quick]
import { renderMessage, type RenderContext } from '../src/markdown/message.js';
import { compileLinkifiers } from '../src/markdown/linkifiers.js';
import { ms, percentiles, report, type Row } from './report.js';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 200 : 1000;

const ctx: RenderContext = {
  usersByName: new Map([['king hamlet', [{ id: 10, fullName: 'King Hamlet' }]]]),
  usersById: new Map([[10, { id: 10, fullName: 'King Hamlet' }]]),
  groupsByName: new Map([['support', { id: 20, name: 'support' }]]),
  channelsByName: new Map([['denmark', { id: 30, name: 'Denmark' }]]),
  linkifiers: compileLinkifiers([{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' }]),
  realmUrl: 'https://chat.example',
  imagePreviews: true,
};

const PROSE = [
  'Hi @**King Hamlet**, following up on #**Denmark>lunch** and issue #42: the *new* parser is **much** faster :tada: ~~not~~ really. ',
  'Read https://docs.example/guide and [the notes](https://notes.example/x) before the review; the numbers below are from Tuesday. ',
  'We measured every step twice, once cold and once warm, and the difference was small enough to ignore for now :+1: ',
  'If anything looks off, ping @*support* or open a ticket like #1234 and we will look at it on <time:2024-05-01T10:00:00Z>. ',
];
const para = (i: number) => `${PROSE[i % 4]}${PROSE[(i + 1) % 4]}${PROSE[(i + 2) % 4]}\n\n`;
const fence = (lang: string, lines: string[]) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\`\n\n`;
const python = (n: number) => fence('python', [
  `def fib(n: int = ${n}) -> int:`, '    """Fibonacci, iteratively."""', '    a, b = 0, 1', '    for _ in range(n):', '        a, b = b, a + b  # step',
  '    return a', '', '', 'class Cache(dict):', '    def __missing__(self, key):', '        value = self[key] = fib(key)', '        return value', '',
  `print(fib(30), Cache()[${n}], "done")`,
]);
const js = (n: number) => fence('js', [
  `const total = items.reduce((sum, { price, qty }) => sum + price * qty, ${n});`, 'console.log(`total: ${total.toFixed(2)}`);',
  'export default function scale(x) {', `  return x * ${n} / 100;`, '}',
]);
const sql = (n: number) => fence('sql', [
  'SELECT id, topic, count(*) AS n', 'FROM messages', `WHERE stream_id = ${n} AND date_sent > now() - interval '7 days'`, 'GROUP BY id, topic ORDER BY n DESC LIMIT 10;',
]);
const math = (n: number) => `Energy is $$E = mc^{${n}}$$, the sum is $$\\sum_{i=1}^{${n}} i = \\frac{n(n+1)}{2}$$ and $$\\alpha_{${n}} \\leq \\beta$$.\n\n`
  + fence('math', [`\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{${n}}`]);
const REST = '* one item with `code`\n* two :+1:\n  * nested item\n1. first\n2. second\n\n> quoted @**King Hamlet**\n> over two lines\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n| 3 | 4 |\n\n';

function build(n: number): string {
  let s = para(0) + python(n) + para(1) + math(n) + para(2) + REST + js(n) + para(3);
  for (let i = 4; s.length < 9600; i++) s += para(i);
  return s + sql(n);
}

function timed(make: (i: number) => string, runs: number) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const input = make(i + 2);
    const c = process.cpuUsage();
    const t = performance.now();
    renderMessage(input, ctx);
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return { wall: percentiles(wall), cpu: percentiles(cpu) };
}

const message = build(1);
timed(build, 50); // warm-up: the first renders compile the regular expressions and KaTeX's tables
const main = timed(build, RUNS);
const short = timed((i) => `Lunch at ${i}? @**King Hamlet** :+1:`, RUNS * 5);

let nested = 'x';
for (let i = 0; i < 200; i++) nested = `\\frac{${nested}}{y}`;
const hostile: [string, string][] = [
  ['math nested 200 deep, inline and display', `$$${nested}$$\n\n\`\`\`math\n${nested}\n\`\`\``],
  ['a 10,000-character code block', `\`\`\`python\n${'x = [a + b * c for a, b, c in zip(xs, ys, zs)]\n'.repeat(220)}`.slice(0, 9996) + '\n```'],
  ['1,250 inline formulas', '$$x^2$$ '.repeat(1250).slice(0, 10_000)],
  ['emoji, links, mentions and linkifiers, 240 times each', ':+1: #42 @**King Hamlet** https://x.example/ '.repeat(240).slice(0, 10_000)],
  ['quotes and lists nested 1,250 deep', `${'> * '.repeat(1250)}x`.slice(0, 10_000)],
];
let worst = 0;
let worstLabel = '';
for (const [label, input] of hostile) {
  const p = timed(() => input, quick ? 3 : 10).cpu;
  if (p.max > worst) [worst, worstLabel] = [p.max, label];
}

const rows: Row[] = [
  {
    id: 'M1', figure: `render a ${(message.length / 1000).toFixed(0)} KB message with 3 code blocks and 4 formulas: CPU median / p99 (wall median); indicative, shared machine`,
    target: '≤ 5 ms', result: `${ms(main.cpu.p50)} / ${ms(main.cpu.p99)} (${ms(main.wall.p50)})`, met: main.cpu.p50 <= 5,
  },
  { id: 'M1', figure: 'render a one-line message with a mention and an emoji: CPU median / p99', result: `${ms(short.cpu.p50)} / ${ms(short.cpu.p99)}` },
  { id: 'M1', figure: 'hostile input (nested math, a 10,000-character code block, 1,250 formulas, 960 links, deep nesting): slowest render, CPU', result: `${ms(worst)} (${worstLabel})` },
];
report(rows);
