// Inline Markdown, applied to the text of every element as the reference renderer applies it: each pattern in
// priority order is searched for in the text; a match becomes an element (or a string) put aside behind a
// placeholder, its own text is processed by the patterns after it, and the text around goes on being searched.
// The placeholders are finally replaced by the elements. The order and these rules decide nesting (`**`
// around a link, no emphasis inside code), so they are kept exactly.
import { El } from './tree.js';

const PREFIX = '\u0002klzzwxh:';
const PLACEHOLDER_RE = /\u0002klzzwxh:([0-9]+)\u0003/g;

export type Node = El | string;

export interface Pattern {
  name: string;
  // Legacy patterns match the text after the search position as a whole (lookbehinds see nothing before it);
  // the others search from the position.
  legacy: boolean;
  re: RegExp;
  // A quick test the text must pass for the pattern to possibly match (a character it cannot match without).
  needs?: RegExp;
  handle(m: RegExpExecArray, data: string, run: InlineRun): { node: Node | null; start?: number; end?: number };
}

interface Text { value: string; atomic: boolean }

// After this many replacements in one text, a pattern resumes its search where its last match was instead of
// from the start: the reference's restart makes hostile text (thousands of emoji or links on one line)
// quadratic, and no real message comes near it.
const RESTARTS = 200;

const globalCopies = new WeakMap<RegExp, RegExp>();
const globalCopy = (re: RegExp) => {
  let g = globalCopies.get(re);
  if (!g) globalCopies.set(re, (g = new RegExp(re.source, `${re.flags.replace('g', '')}g`)));
  return g;
};

export class InlineRun {
  stashed: Node[] = [];
  constructor(public patterns: Pattern[]) {}

  private stash(node: Node): string {
    this.stashed.push(node);
    return `${PREFIX}${String(this.stashed.length - 1).padStart(4, '0')}\u0003`;
  }

  // The text a placeholder stands for, for patterns that need the plain text of what they matched.
  unstash(text: string): string {
    return text.replace(PLACEHOLDER_RE, (_, id) => {
      const node = this.stashed[Number(id)];
      return node === undefined ? '' : typeof node === 'string' ? node : node.itertext();
    });
  }

  handleInline(data: string, atomic: boolean, patternIndex = 0): string {
    if (atomic) return data;
    let startIndex = 0;
    let index = patternIndex;
    let replacements = 0;
    while (index < this.patterns.length) {
      const needs = this.patterns[index].needs;
      if (needs && !needs.test(data)) {
        index++;
        startIndex = 0;
        continue;
      }
      const resume = replacements >= RESTARTS;
      const r = this.applyPattern(this.patterns[index], data, index, startIndex, resume);
      data = r.data;
      startIndex = r.startIndex;
      if (r.replaced) replacements++;
      if (!r.matched) {
        index++;
        startIndex = 0;
      }
    }
    return data;
  }

  private applyPattern(
    pattern: Pattern, data: string, patternIndex: number, startIndex: number, resume: boolean,
  ): { data: string; matched: boolean; startIndex: number; replaced?: boolean } {
    let match: RegExpExecArray | null = null;
    let node: Node | null = null;
    let start = 0;
    let end = 0;
    if (pattern.legacy && resume) {
      const re = globalCopy(pattern.re);
      re.lastIndex = startIndex;
      match = re.exec(data);
      if (!match) return { data, matched: false, startIndex: 0 };
      node = pattern.handle(match, data, this).node;
      start = match.index;
      end = match.index + match[0].length;
      if (node === null) return { data, matched: true, startIndex: Math.max(end, start + 1) };
    } else if (pattern.legacy) {
      const rest = data.slice(startIndex);
      pattern.re.lastIndex = 0;
      match = pattern.re.exec(rest);
      if (!match) return { data, matched: false, startIndex: 0 };
      node = pattern.handle(match, rest, this).node;
      start = startIndex + match.index;
      end = startIndex + match.index + match[0].length;
      // The reference resumes after the whole remaining text it matched against.
      if (node === null) return { data, matched: true, startIndex: rest.length };
    } else {
      pattern.re.lastIndex = startIndex;
      for (;;) {
        match = pattern.re.exec(data);
        if (!match) return { data, matched: false, startIndex: 0 };
        if (match[0] === '') pattern.re.lastIndex++;
        const r = pattern.handle(match, data, this);
        if (r.start === undefined || r.end === undefined) continue;
        ({ start, end } = r);
        node = r.node;
        break;
      }
      if (node === null) return { data, matched: true, startIndex: end };
    }
    if (typeof node !== 'string' && !node.atomicText) {
      for (const child of [node, ...node.children]) {
        if (child.text) child.text = this.handleInline(child.text, child.atomicText, patternIndex + 1);
        if (child.tail) child.tail = this.handleInline(child.tail, child.atomicTail, patternIndex);
      }
    }
    return { data: data.slice(0, start) + this.stash(node) + data.slice(end), matched: true, startIndex: resume ? start : 0, replaced: true };
  }

  private processElementText(node: El, sub: El, isText: boolean): void {
    const text: Text = isText ? { value: sub.text!, atomic: sub.atomicText } : { value: sub.tail!, atomic: sub.atomicTail };
    if (isText) sub.text = null;
    else sub.tail = null;
    const result = this.processPlaceholders(text, sub, isText);
    const pos = !isText && node !== sub ? node.children.indexOf(sub) + 1 : 0;
    for (const child of result.reverse()) node.insert(pos, child);
  }

  processPlaceholders(data: Text | null, parent: El, isText: boolean): El[] {
    const result: El[] = [];
    const linkText = (text: string, atomic: boolean) => {
      if (!text) return;
      if (result.length) {
        const last = result[result.length - 1];
        last.atomicTail = !last.tail && atomic;
        last.tail = (last.tail ?? '') + text;
      } else if (!isText) {
        parent.atomicTail = !parent.tail && atomic;
        parent.tail = (parent.tail ?? '') + text;
      } else {
        parent.atomicText = !parent.text && atomic;
        parent.text = (parent.text ?? '') + text;
      }
    };
    if (!data) return result;
    const s = data.value;
    let at = 0;
    while (at < s.length) {
      const index = s.indexOf(PREFIX, at);
      if (index === -1) {
        linkText(s.slice(at), data.atomic);
        break;
      }
      PLACEHOLDER_RE.lastIndex = index;
      const m = PLACEHOLDER_RE.exec(s);
      const node = m ? this.stashed[Number(m[1])] : undefined;
      if (!m || node === undefined) {
        const end = index + PREFIX.length;
        linkText(s.slice(at, end), false);
        at = end;
        continue;
      }
      if (index > 0) linkText(s.slice(at, index), false);
      at = m.index + m[0].length;
      if (typeof node === 'string') {
        linkText(node, false);
        continue;
      }
      for (const child of [node, ...node.children]) {
        if (child.tail && child.tail.trim()) this.processElementText(node, child, false);
        if (child.text && child.text.trim()) this.processElementText(child, child, true);
      }
      result.push(node);
    }
    return result;
  }

  // Every element's text and tail, breadth first, as the reference walks the tree.
  run(root: El): void {
    const queue: El[] = [root];
    while (queue.length) {
      const current = queue.shift()!;
      const insertQueue: [El, El[]][] = [];
      // New elements from a tail are inserted after their sibling and visited in turn, as in the reference.
      for (let i = 0; i < current.children.length; i++) {
        const child = current.children[i];
        if (child.text && !child.atomicText) {
          const text = child.text;
          child.text = null;
          const list = this.processPlaceholders({ value: this.handleInline(text, false), atomic: false }, child, true);
          queue.push(...list);
          insertQueue.push([child, list]);
        }
        if (child.tail) {
          const tail = this.handleInline(child.tail, child.atomicTail);
          const dummy = new El('d');
          child.tail = null;
          const result = this.processPlaceholders({ value: tail, atomic: child.atomicTail }, dummy, false);
          if (dummy.tail) {
            child.tail = dummy.tail;
            child.atomicTail = dummy.atomicTail;
          }
          const pos = current.children.indexOf(child) + 1;
          current.children.splice(pos, 0, ...result);
        }
        if (child.children.length) queue.push(child);
      }
      for (const [el, list] of insertQueue) list.forEach((c, i) => el.insert(i, c));
    }
  }
}
