// Block structure: the text, split at blank lines, is handed to block processors in the reference renderer's
// order (its Python-Markdown configuration): indented list continuations, indented code, `#` headings, tables,
// rules, ordered and bulleted lists (two-space indentation), quotes, paragraphs. Each processor reproduces the
// reference's rules, so lists, quotes and paragraphs nest exactly as there.
import type { BlockProcessor } from './block-parser.js';
import { codeEscape, El } from './tree.js';
import { tableProcessor } from './tables.js';

// Python's str.strip() family strips whitespace; Markdown text only ever has spaces and newlines left here.
export const isBlank = (s: string) => s.trim() === '';

const lastChild = (parent: El) => parent.last;

function detab(text: string, length: number): [string, string] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const line of lines) {
    if (line.startsWith(' '.repeat(length))) out.push(line.slice(length));
    else if (!line.trim()) out.push('');
    else break;
  }
  return [out.join('\n'), lines.slice(out.length).join('\n')];
}

function looseDetab(text: string, length: number, level = 1): string {
  const prefix = ' '.repeat(length * level);
  return text.split('\n').map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l)).join('\n');
}

const isList = (tag: string) => tag === 'ul' || tag === 'ol';

const empty: BlockProcessor = {
  test: (_p, _parent, block) => !block || block.startsWith('\n'),
  run(_p, parent, blocks) {
    const block = blocks.shift()!;
    let filler = '\n\n';
    if (block) {
      filler = '\n';
      const rest = block.slice(1);
      if (rest) blocks.unshift(rest);
    }
    const sibling = lastChild(parent);
    if (sibling && sibling.tag === 'pre' && sibling.children.length && sibling.children[0].tag === 'code') {
      sibling.children[0].setText(`${sibling.children[0].text ?? ''}${filler}`, true);
    }
  },
};

// Bulleted and numbered lists indent by two spaces.
const LIST_TAB = 2;
const INDENT_RE = /^((?: {2})+)/;

const listIndent: BlockProcessor = {
  test: (p, parent, block) =>
    block.startsWith('  ') && !p.isState('detabbed') && (parent.tag === 'li' || (parent.children.length > 0 && isList(parent.last!.tag))),
  run(p, parent, blocks) {
    const block0 = blocks.shift()!;
    const m = INDENT_RE.exec(block0);
    const indentLevel = m ? m[1].length / LIST_TAB : 0;
    let level = p.isState('list') ? 1 : 0;
    let sibling = parent;
    while (indentLevel > level) {
      const child = lastChild(sibling);
      if (child && (isList(child.tag) || child.tag === 'li')) {
        if (isList(child.tag)) level++;
        sibling = child;
      } else break;
    }
    const block = looseDetab(block0, LIST_TAB, level);
    p.state.push('detabbed');
    if (parent.tag === 'li') {
      const last = parent.last;
      p.parseBlocks(last && isList(last.tag) ? last : parent, [block]);
    } else if (sibling.tag === 'li') {
      p.parseBlocks(sibling, [block]);
    } else if (sibling.children.length && sibling.last!.tag === 'li') {
      const li = sibling.last!;
      if (li.text) {
        const para = new El('p').setText(li.text);
        li.text = '';
        li.insert(0, para);
      }
      p.parseChunk(li, block);
    } else {
      p.parseBlocks(sibling.sub('li'), [block]);
    }
    p.state.pop();
  },
};

const CODE_TAB = 4;
const code: BlockProcessor = {
  test: (_p, _parent, block) => block.startsWith('    '),
  run(_p, parent, blocks) {
    const sibling = lastChild(parent);
    const [block, rest] = detab(blocks.shift()!, CODE_TAB);
    const escaped = codeEscape(block.trimEnd());
    if (sibling && sibling.tag === 'pre' && sibling.children.length && sibling.children[0].tag === 'code') {
      const c = sibling.children[0];
      c.setText(`${c.text ?? ''}\n${escaped}\n`, true);
    } else {
      parent.sub('pre').sub('code').setText(`${escaped}\n`, true);
    }
    if (rest) blocks.unshift(rest);
  },
};

// A heading needs a space after its hashes.
const HASH_HEADER = /(?:^|\n)(#{1,6})\s((?:\\.|[^\\])*?)#*(?:\n|$)/;
const hashHeader: BlockProcessor = {
  test: (_p, _parent, block) => HASH_HEADER.test(block),
  run(p, parent, blocks) {
    const block = blocks.shift()!;
    const m = HASH_HEADER.exec(block)!;
    const before = block.slice(0, m.index);
    let after = block.slice(m.index + m[0].length);
    if (before) p.parseBlocks(parent, [before]);
    parent.sub(`h${m[1].length}`).setText(m[2].trim());
    if (after) {
      if (p.isState('looselist')) after = looseDetab(after, CODE_TAB);
      blocks.unshift(after);
    }
  },
};

const HR = /^ {0,3}(?:(?:-+ {0,2}){3,}|(?:_+ {0,2}){3,}|(?:\*+ {0,2}){3,}) *$/m;
const hr: BlockProcessor = {
  test: (_p, _parent, block) => HR.test(block),
  run(p, parent, blocks) {
    const block = blocks.shift()!;
    const m = HR.exec(block)!;
    const pre = block.slice(0, m.index).replace(/\n+$/, '');
    if (pre) p.parseBlocks(parent, [pre]);
    parent.sub('hr');
    const post = block.slice(m.index + m[0].length).replace(/^\n+/, '');
    if (post) blocks.unshift(post);
  },
};

// Lists of one kind only ("sane lists"): a bullet after a numbered item starts another list.
function listProcessor(tag: 'ol' | 'ul'): BlockProcessor {
  const RE = tag === 'ol' ? /^ ?\d+\.[ ]+(.*)/ : /^ ?[*+-][ ]+(.*)/;
  const CHILD_RE = tag === 'ol' ? /^ ?((\d+\.))[ ]+(.*)/ : /^ ?(([*+-]))[ ]+(.*)/;
  const ITEM_INDENT = /^ {2,3}((\d+\.)|[*+-])[ ]+.*/;
  let startsWith = '1';
  const getItems = (block: string): string[] => {
    const items: string[] = [];
    for (const line of block.split('\n')) {
      const m = CHILD_RE.exec(line);
      if (m) {
        if (!items.length && tag === 'ol') startsWith = /^\d+/.exec(m[1])![0];
        items.push(m[3]);
      } else if (ITEM_INDENT.test(line)) {
        if (items[items.length - 1].startsWith('  ')) items[items.length - 1] += `\n${line}`;
        else items.push(line);
      } else {
        items[items.length - 1] += `\n${line}`;
      }
    }
    return items;
  };
  return {
    test: (_p, _parent, block) => RE.test(block),
    run(p, parent, blocks) {
      const items = getItems(blocks.shift()!);
      const sibling = lastChild(parent);
      let lst: El;
      if (sibling && sibling.tag === tag) {
        lst = sibling;
        const li = lst.last!;
        if (li.text) {
          const para = new El('p').setText(li.text);
          li.text = '';
          li.insert(0, para);
        }
        const lch = lastChild(li);
        if (lch && lch.tail) {
          li.sub('p').setText(lch.tail.replace(/^\s+/, ''));
          lch.tail = '';
        }
        const first = lst.sub('li');
        p.state.push('looselist');
        p.parseBlocks(first, [items.shift()!]);
        p.state.pop();
      } else if (isList(parent.tag)) {
        lst = parent;
      } else {
        lst = parent.sub(tag);
        if (tag === 'ol' && startsWith !== '1') lst.set('start', startsWith);
      }
      p.state.push('list');
      for (const item of items) {
        if (item.startsWith('  ')) p.parseBlocks(lst.last!, [item]);
        else p.parseBlocks(lst.sub('li'), [item]);
      }
      p.state.pop();
    },
  };
}

// A quote; unlike the original Markdown, a blank line ends it, and lines of bare `>` alone make none.
const QUOTE = /(^|\n)(?!(?: {0,3}>\s*(?:$|\n))*(?:$|\n)) {0,3}>[ ]?(.*)/;
const quote = (silence: (line: string) => string): BlockProcessor => ({
  test: (_p, _parent, block) => QUOTE.test(block),
  run(p, parent, blocks) {
    let block = blocks.shift()!;
    const m = QUOTE.exec(block);
    if (m) {
      p.parseBlocks(parent, [block.slice(0, m.index)]);
      block = block.slice(m.index).split('\n').map((line) => {
        const l = silence(line);
        const lm = QUOTE.exec(l);
        if (l.trim() === '>') return '';
        return lm ? lm[2] : l;
      }).join('\n');
    }
    const q = parent.sub('blockquote');
    p.state.push('blockquote');
    p.parseChunk(q, block);
    p.state.pop();
  },
});

const paragraph: BlockProcessor = {
  test: () => true,
  run(p, parent, blocks) {
    const block = blocks.shift()!;
    if (!block.trim()) return;
    if (p.isState('list')) {
      const sibling = lastChild(parent);
      if (sibling) sibling.tail = sibling.tail ? `${sibling.tail}\n${block}` : `\n${block}`;
      else parent.text = parent.text ? `${parent.text}\n${block}` : block.replace(/^\s+/, '');
    } else {
      parent.sub('p').setText(block.replace(/^\s+/, ''));
    }
  },
};

export function blockProcessors(silence: (line: string) => string): BlockProcessor[] {
  return [empty, listIndent, code, hashHeader, tableProcessor, hr, listProcessor('ol'), listProcessor('ul'), quote(silence), paragraph];
}
