// The element tree message Markdown is parsed into, and its HTML serialization. It follows the reference
// renderer's model (an ElementTree with `text` before the first child and `tail` after each element), because
// the reference's output — newlines, escaping, attribute order — falls out of that model, and clients parse it.

export class El {
  tag: string;
  attrs = new Map<string, string>();
  text: string | null = null;
  tail: string | null = null;
  // Atomic text is never processed by inline patterns (code, link labels, mention names).
  atomicText = false;
  atomicTail = false;
  children: El[] = [];

  constructor(tag: string, attrs?: Record<string, string>) {
    this.tag = tag;
    if (attrs) for (const [k, v] of Object.entries(attrs)) this.attrs.set(k, v);
  }

  get(key: string): string | undefined {
    return this.attrs.get(key);
  }

  set(key: string, value: string): this {
    this.attrs.set(key, value);
    return this;
  }

  sub(tag: string, attrs?: Record<string, string>): El {
    const el = new El(tag, attrs);
    this.children.push(el);
    return el;
  }

  append(el: El): void {
    this.children.push(el);
  }

  insert(index: number, el: El): void {
    this.children.splice(index, 0, el);
  }

  remove(el: El): void {
    const i = this.children.indexOf(el);
    if (i >= 0) this.children.splice(i, 1);
  }

  get last(): El | null {
    return this.children.length ? this.children[this.children.length - 1] : null;
  }

  setText(text: string, atomic = false): this {
    this.text = text;
    this.atomicText = atomic;
    return this;
  }

  // Every element below and including this one, depth first.
  iter(tag?: string, out: El[] = []): El[] {
    if (!tag || this.tag === tag) out.push(this);
    for (const c of this.children) c.iter(tag, out);
    return out;
  }

  // The text of this element and its descendants (without its own tail).
  itertext(): string {
    let s = this.text ?? '';
    for (const c of this.children) s += c.itertext() + (c.tail ?? '');
    return s;
  }
}

const BLOCK_LEVEL = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul',
  'canvas', 'colgroup', 'dd', 'body', 'dt', 'group', 'html', 'iframe', 'li', 'legend', 'math', 'map', 'noscript', 'output',
  'object', 'option', 'progress', 'script', 'style', 'summary', 'tbody', 'td', 'textarea', 'tfoot', 'th', 'thead', 'tr',
  'video', 'center',
]);
export const isBlockLevel = (tag: string) => BLOCK_LEVEL.has(tag.toLowerCase());

const EMPTY = new Set(['area', 'base', 'basefont', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

// An ampersand that already starts an entity is kept as it is.
const BARE_AMP = /&(?!(?:#[0-9]+|#x[0-9a-f]+|[0-9a-z]+);)/gi;

export function escapeText(text: string): string {
  if (text.includes('&')) text = text.replace(BARE_AMP, '&amp;');
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const escapeAttr = (text: string) => escapeText(text).replace(/"/g, '&quot;');

// Code is escaped completely: its text is shown as written.
export const codeEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function write(out: string[], el: El): void {
  out.push('<', el.tag);
  for (const k of [...el.attrs.keys()].sort()) {
    const v = el.attrs.get(k)!;
    out.push(k === v ? ` ${v}` : ` ${k}="${escapeAttr(v)}"`);
  }
  out.push('>');
  if (el.text) out.push(escapeText(el.text));
  for (const c of el.children) write(out, c);
  if (!EMPTY.has(el.tag)) out.push('</', el.tag, '>');
  if (el.tail) out.push(escapeText(el.tail));
}

// The HTML of an element's content and children (the element's own tags left out).
export function serializeInner(root: El): string {
  const out: string[] = [];
  if (root.text) out.push(escapeText(root.text));
  for (const c of root.children) write(out, c);
  return out.join('');
}

export function serialize(el: El): string {
  const out: string[] = [];
  write(out, el);
  return out.join('');
}
