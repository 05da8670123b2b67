// The block parser: hands each block of text to the processors in order until one takes it. It sits apart from
// the processors (blocks.ts, tables.ts), which all depend on it, so that they do not depend on each other.
import type { El } from './tree.js';

export interface BlockProcessor {
  test(parser: BlockParser, parent: El, block: string): boolean;
  run(parser: BlockParser, parent: El, blocks: string[]): boolean | void;
}

export class BlockParser {
  state: string[] = [];
  depth = 0;
  constructor(private processors: BlockProcessor[], private maxDepth: number) {}

  isState(s: string): boolean {
    return this.state.length > 0 && this.state[this.state.length - 1] === s;
  }

  parseChunk(parent: El, text: string): void {
    this.parseBlocks(parent, text.split('\n\n'));
  }

  parseBlocks(parent: El, blocks: string[]): void {
    // Nesting is bounded: past the limit, what is left is kept as plain text.
    if (this.depth >= this.maxDepth) {
      const text = blocks.join('\n\n');
      if (text.trim()) parent.sub('p').setText(text.trim());
      return;
    }
    this.depth++;
    try {
      while (blocks.length) {
        for (const p of this.processors) {
          if (p.test(this, parent, blocks[0]) && p.run(this, parent, blocks) !== false) break;
        }
      }
    } finally {
      this.depth--;
    }
  }
}
