// An Aho–Corasick automaton over a set of words: one pass over a text reports every occurrence of every word,
// in time proportional to the text plus the occurrences, however many words there are. Words and texts are
// compared by UTF-16 unit, so callers fold case (or not) before building and before scanning.
//
// The trie lives in typed arrays. A node's first child is found inline (most nodes of a trie of words have one
// child); only further children go to one map of edges keyed by `node * 65536 + unit`, which keeps the map (and
// the pauses of rehashing it) small. Building yields to the event loop as it goes (see pace.ts), so a large set of
// words never holds it for long.
import { pace } from './pace.js';

const UNITS = 65536;

class Column {
  data: Int32Array;
  constructor(initial: number, private fill: number) {
    this.data = new Int32Array(initial).fill(fill);
  }
  grow(size: number): void {
    const next = new Int32Array(size).fill(this.fill);
    next.set(this.data);
    this.data = next;
  }
}

export class WordAutomaton {
  private nodes = 1; // the root is node 0
  private capacity = 64;
  private edges = new Map<number, number>();
  private firstChild = new Column(64, -1);
  private nextSibling = new Column(64, -1);
  private label = new Column(64, 0);
  private fail = new Column(64, 0);
  private word = new Column(64, -1); // the word ending at a node, or -1
  private output = new Column(64, -1); // the nearest node on the failure chain, itself excluded, where a word ends
  private lengths: number[] = []; // of each word, in UTF-16 units

  private constructor() {}

  // `words` must be distinct; a word's index in it is what scan reports.
  static async build(words: readonly string[]): Promise<WordAutomaton> {
    const a = new WordAutomaton();
    for (let i = 0; i < words.length; i++) {
      a.insert(words[i], i);
      if ((i & 255) === 255) await pace();
    }
    await a.link();
    return a;
  }

  get size(): number {
    return this.lengths.length;
  }

  private child(node: number, unit: number): number | undefined {
    const first = this.firstChild.data[node];
    if (first === -1) return undefined;
    if (this.label.data[first] === unit) return first;
    return this.edges.get(node * UNITS + unit);
  }

  private insert(w: string, index: number): void {
    let node = 0;
    for (let j = 0; j < w.length; j++) {
      const unit = w.charCodeAt(j);
      let next = this.child(node, unit);
      if (next === undefined) {
        next = this.addNode(node, unit);
      }
      node = next;
    }
    this.word.data[node] = index;
    this.lengths[index] = w.length;
  }

  private addNode(parent: number, unit: number): number {
    const n = this.nodes++;
    if (n >= this.capacity) {
      this.capacity *= 2;
      for (const c of [this.firstChild, this.nextSibling, this.label, this.fail, this.word, this.output]) c.grow(this.capacity);
    }
    this.label.data[n] = unit;
    const first = this.firstChild.data[parent];
    if (first === -1) this.firstChild.data[parent] = n;
    else {
      // Later children go after the first, which stays the one found inline.
      this.nextSibling.data[n] = this.nextSibling.data[first];
      this.nextSibling.data[first] = n;
      this.edges.set(parent * UNITS + unit, n);
    }
    return n;
  }

  // Failure links, breadth first: a node's link is the longest proper suffix of its path that is in the trie.
  private async link(): Promise<void> {
    const { firstChild, nextSibling, label, fail, word, output } = this;
    const queue = new Int32Array(this.nodes);
    let tail = 0;
    for (let c = firstChild.data[0]; c !== -1; c = nextSibling.data[c]) queue[tail++] = c;
    for (let head = 0; head < tail; head++) {
      const node = queue[head];
      for (let c = firstChild.data[node]; c !== -1; c = nextSibling.data[c]) {
        const unit = label.data[c];
        let f = fail.data[node];
        let target = this.child(f, unit);
        while (target === undefined && f !== 0) {
          f = fail.data[f];
          target = this.child(f, unit);
        }
        const to = target ?? 0;
        fail.data[c] = to;
        output.data[c] = word.data[to] !== -1 ? to : output.data[to];
        queue[tail++] = c;
      }
      if ((head & 4095) === 4095) await pace();
    }
  }

  // Calls `found(word, start, end)` for every occurrence (`end` exclusive), in order of their end.
  scan(text: string, found: (word: number, start: number, end: number) => void): void {
    const fail = this.fail.data;
    const word = this.word.data;
    const output = this.output.data;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let next = this.child(node, unit);
      while (next === undefined && node !== 0) {
        node = fail[node];
        next = this.child(node, unit);
      }
      node = next ?? 0;
      for (let n = word[node] !== -1 ? node : output[node]; n !== -1; n = output[n]) {
        const w = word[n];
        found(w, i + 1 - this.lengths[w], i + 1);
      }
    }
  }
}
