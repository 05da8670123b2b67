// Pipe tables, as the reference renders them: a header row, a separator row of dashes (colons set the
// alignment, as a `text-align` style), body rows; pipes inside code spans do not split cells.
import type { BlockProcessor } from './block-parser.js';
import type { El } from './tree.js';

const CODE_PIPES = /(\\\\)|(\\`+)|(`+)|(\\\|)|(\|)/g;
const END_BORDER = /(?<!\\)(?:\\\\)*\|$/;

function split(row: string): string[] {
  const pipes: number[] = [];
  const tics: number[] = [];
  const ticPoints: [number, number, number][] = [];
  for (const m of row.matchAll(CODE_PIPES)) {
    if (m[2]) {
      tics.push(m[2].length - 1);
      ticPoints.push([m.index, m.index + m[0].length - 1, 1]);
    } else if (m[3]) {
      tics.push(m[3].length);
      ticPoints.push([m.index, m.index + m[0].length - 1, 0]);
    } else if (m[5]) pipes.push(m.index);
  }
  const regions: [number, number][] = [];
  let pos = 0;
  while (pos < tics.length) {
    const size = tics[pos] - ticPoints[pos][2];
    const next = size === 0 ? -1 : tics.slice(pos + 1).indexOf(size);
    if (next < 0) {
      pos++;
      continue;
    }
    regions.push([ticPoints[pos][0], ticPoints[pos + next + 1][1]]);
    pos += next + 2;
  }
  const cells: string[] = [];
  let at = 0;
  for (const pipe of pipes) {
    if (regions.some(([a, b]) => a <= pipe && pipe <= b)) continue;
    cells.push(row.slice(at, pipe));
    at = pipe + 1;
  }
  cells.push(row.slice(at));
  return cells;
}

function splitRow(row: string, border: boolean): string[] {
  if (border) {
    if (row.startsWith('|')) row = row.slice(1);
    row = row.replace(END_BORDER, '');
  }
  return split(row);
}

const stripSpaces = (s: string) => s.replace(/^ +| +$/g, '');

function buildRow(row: string, parent: El, align: (string | null)[], border: boolean): void {
  const tr = parent.sub('tr');
  const tag = parent.tag === 'thead' ? 'th' : 'td';
  const cells = splitRow(row, border);
  align.forEach((a, i) => {
    const c = tr.sub(tag);
    c.text = i < cells.length ? stripSpaces(cells[i]) : '';
    if (a) c.set('style', `text-align: ${a};`);
  });
}

// test() works out the border and separator; run() follows it directly, as in the reference.
let border = false;
let separator: string[] = [];

export const tableProcessor: BlockProcessor = {
  test(_p, _parent, block) {
    const rows = block.split('\n').map(stripSpaces);
    if (rows.length < 2) return false;
    const header = rows[0];
    border = header.startsWith('|') || END_BORDER.test(header);
    const row0 = splitRow(header, border);
    let isTable = row0.length > 1;
    if (!isTable && row0.length === 1 && border) {
      for (let i = 1; i < rows.length; i++) {
        isTable = rows[i].startsWith('|') || END_BORDER.test(rows[i]);
        if (!isTable) break;
      }
    }
    if (isTable) {
      const row = splitRow(rows[1], border);
      isTable = row.length === row0.length && /^[|:\- ]*$/.test(row.join(''));
      if (isTable) separator = row;
    }
    return isTable;
  },
  run(_p, parent, blocks) {
    const lines = blocks.shift()!.split('\n');
    const align = separator.map((c) => {
      const s = stripSpaces(c);
      if (s.startsWith(':') && s.endsWith(':')) return 'center';
      if (s.startsWith(':')) return 'left';
      if (s.endsWith(':')) return 'right';
      return null;
    });
    const table = parent.sub('table');
    buildRow(stripSpaces(lines[0]), table.sub('thead'), align, border);
    const tbody = table.sub('tbody');
    const rows = lines.slice(2);
    if (!rows.length) {
      const tr = tbody.sub('tr');
      for (let i = 0; i < align.length; i++) tr.sub('td');
    }
    for (const row of rows) buildRow(stripSpaces(row), tbody, align, border);
  },
};
