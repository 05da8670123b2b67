// A rendered message as plain text, as the reference makes it for notifications (its corpus's text_content):
// emoji as their characters, custom emoji as their `:name:`, quotes prefixed with "> ", numbered lists
// numbered, spoilers as their header and "(…)", math as its TeX. It reads the HTML this renderer writes.

interface Node { tag: string; attrs: Map<string, string>; text: string; tail: string; children: Node[]; parent: Node | null }

const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'wbr', 'col', 'area', 'base', 'embed', 'source', 'track']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

function parse(html: string): Node {
  const root: Node = { tag: 'div', attrs: new Map(), text: '', tail: '', children: [], parent: null };
  let current = root;
  const addText = (t: string) => {
    if (!t) return;
    const last = current.children[current.children.length - 1];
    if (last) last.tail += decode(t);
    else current.text += decode(t);
  };
  const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>|<!--[^]*?-->/g;
  let at = 0;
  for (const m of html.matchAll(TOKEN)) {
    addText(html.slice(at, m.index));
    at = m.index + m[0].length;
    if (!m[2]) continue;
    const tag = m[2].toLowerCase();
    if (m[1]) {
      for (let n: Node | null = current; n && n !== root; n = n.parent) {
        if (n.tag === tag) {
          current = n.parent!;
          break;
        }
      }
      continue;
    }
    const attrs = new Map<string, string>();
    for (const a of m[3].matchAll(/([^\s=>]+)(?:="([^"]*)")?/g)) attrs.set(a[1].toLowerCase(), decode(a[2] ?? ''));
    const node: Node = { tag, attrs, text: '', tail: '', children: [], parent: current };
    current.children.push(node);
    if (!VOID.has(tag)) current = node;
  }
  addText(html.slice(at));
  return root;
}

const classes = (n: Node) => (n.attrs.get('class') ?? '').split(/\s+/);
const allText = (n: Node): string => n.text + n.children.map((c) => allText(c) + c.tail).join('');

function ownText(n: Node): string {
  const cls = n.attrs.get('class') ?? '';
  if (cls.includes('emoji')) {
    const code = /emoji-(\S+)/.exec(cls)?.[1];
    if (code) return String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));
  }
  if (n.tag === 'img') return n.attrs.get('alt') ?? '';
  if (n.tag === 'blockquote') return '';
  return n.text;
}

const asQuote = (text: string) => text.split(/\r\n|\r|\n/).filter(Boolean).map((l) => `> ${l}\n`).join('');

function olist(n: Node): string {
  let counter = n.attrs.has('start') ? Number(n.attrs.get('start')) : 1;
  let levels = 0;
  for (let p = n.parent; p; p = p.parent) if (p.tag === 'ol') levels++;
  const indent = levels ? `\n${'  '.repeat(levels)}` : '';
  return n.children.map((li) => `${indent}${counter++}. ${process(li).trim()}`).join('\n');
}

function spoiler(n: Node): string {
  const header = n.children.find((c) => classes(c).includes('spoiler-header'));
  const text = header ? process(header).trim() : '';
  return text ? `${text} (…)\n` : '(…)\n';
}

function process(n: Node): string {
  if (n.tag === 'ol') return olist(n);
  if (classes(n).includes('spoiler-block')) return spoiler(n);
  // Math is given as its TeX.
  if (classes(n).includes('katex')) {
    const annotation = findTag(n, 'annotation');
    return `$$${annotation ? allText(annotation) : ''}$$${n.tail}`;
  }
  let sub = n.children.map(process).join('');
  if (n.tag === 'blockquote') sub = asQuote(sub);
  return ownText(n) + sub + n.tail;
}

function findTag(n: Node, tag: string): Node | null {
  for (const c of n.children) {
    if (c.tag === tag) return c;
    const found = findTag(c, tag);
    if (found) return found;
  }
  return null;
}

export function textContent(html: string): string {
  return process(parse(html));
}
