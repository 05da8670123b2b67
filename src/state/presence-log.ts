// The presence rows a process keeps per organization, read once and then only those changed since: every change
// of what a row shows takes a new update id (touchPresence), so the kept rows stay true to the database whichever
// process wrote, and a row is only replaced by a newer one, so concurrent refreshes cannot go back in time.
// They are kept in the order of their update ids, in blocks, so that an answer to a client's position reads only
// what changed after it; each block keeps the UTF-8 bytes of its entries in the modern format. A client pinging
// once a minute in an organization of 10,000 online users gets thousands of entries, nearly all of them in whole
// blocks whose bytes are made once and sent to every client after them, not joined, encoded and counted again.
import type { Presence, PresenceRow } from '../store/presence.js';

// A row with its entries of an answer in each format, as JSON, made when first needed: they depend on nothing else.
export type EntryRow = PresenceRow & { modern?: string; legacy?: string };

// `replaced`: a newer row of the same user is kept (the row stays in its block until the blocks are rebuilt).
export type KeptRow = EntryRow & { replaced: boolean; block: Block | null };

// `bytes`: the block's modern entries (visible rows not replaced), comma-separated; undefined until asked for and
// whenever a row of the block is replaced or added.
type Block = { rows: KeptRow[]; bytes: Buffer | undefined };

// `entries`: rows in the blocks, replaced ones included.
export type Kept = { seq: number; rows: Map<number, KeptRow>; blocks: Block[]; entries: number };

const BLOCK = 256;

export const emptyKept = (): Kept => ({ seq: 0, rows: new Map(), blocks: [], entries: 0 });

export function modernPresence(p: Presence) {
  return { active_timestamp: p.lastActiveTime ?? 0, idle_timestamp: p.lastConnectedTime };
}

export const modernEntry = (p: EntryRow): string => (p.modern ??= `"${p.userId}":${JSON.stringify(modernPresence(p))}`);

// Keeps a row unless the one kept is as new. Every kept row has the same shape: answers loop over thousands.
export function keep(c: Kept, r: PresenceRow): void {
  const old = c.rows.get(r.userId);
  if (r.lastUpdateId <= (old?.lastUpdateId ?? 0)) return;
  const { userId, lastActiveTime, lastConnectedTime, lastUpdateId, email, visible } = r;
  const row: KeptRow = { userId, lastActiveTime, lastConnectedTime, lastUpdateId, email, visible, modern: undefined, legacy: undefined, replaced: false, block: null };
  c.rows.set(userId, row);
  if (old) {
    old.replaced = true;
    if (old.block) old.block.bytes = undefined;
  }
  place(c, row);
  // Replaced rows are dropped once they outnumber the live ones.
  if (c.entries > 2 * c.rows.size + 1000) rebuild(c);
}

// Rows come in update-id order (refreshKept sorts what it reads) except when refreshes overlap.
function place(c: Kept, row: KeptRow): void {
  let block = c.blocks.at(-1);
  if (!block || block.rows.at(-1)!.lastUpdateId < row.lastUpdateId) {
    if (!block || block.rows.length >= BLOCK) c.blocks.push((block = { rows: [], bytes: undefined }));
    block.rows.push(row);
  } else {
    block = c.blocks[Math.min(blockAfter(c.blocks, row.lastUpdateId), c.blocks.length - 1)];
    block.rows.splice(firstAfter(block.rows, row.lastUpdateId), 0, row);
  }
  block.bytes = undefined;
  row.block = block;
  c.entries++;
}

function rebuild(c: Kept): void {
  const live = [...c.rows.values()].sort((a, b) => a.lastUpdateId - b.lastUpdateId);
  c.blocks = [];
  for (let i = 0; i < live.length; i += BLOCK) {
    const block: Block = { rows: live.slice(i, i + BLOCK), bytes: undefined };
    for (const r of block.rows) r.block = block;
    c.blocks.push(block);
  }
  c.entries = live.length;
}

// The first index below `length` at which `above(i)` holds, for a predicate false up to some index and true after.
function bisect(length: number, above: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (above(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// The index of the first row with an update id above `id`.
const firstAfter = (rows: KeptRow[], id: number) => bisect(rows.length, (i) => rows[i].lastUpdateId > id);

// The index of the first block holding a row with an update id above `id` (blocks.length if none).
const blockAfter = (blocks: Block[], id: number) => bisect(blocks.length, (i) => blocks[i].rows.at(-1)!.lastUpdateId > id);

// The kept rows changed after update id `after`, oldest first (without one: all of them, in no order).
export function keptRows(c: Kept, after?: number): Iterable<KeptRow> {
  if (after === undefined || after <= 0) return c.rows.values();
  const out: KeptRow[] = [];
  for (let b = blockAfter(c.blocks, after); b < c.blocks.length; b++) {
    const rows = c.blocks[b].rows;
    for (let i = firstAfter(rows, after); i < rows.length; i++) if (!rows[i].replaced) out.push(rows[i]);
  }
  return out;
}

const COMMA = Buffer.from(',');

function blockBytes(block: Block): Buffer {
  if (block.bytes) return block.bytes;
  const entries: string[] = [];
  for (const r of block.rows) if (!r.replaced && r.visible) entries.push(modernEntry(r));
  return (block.bytes = Buffer.from(entries.join(',')));
}

// The modern entries of the visible rows changed after `after` (> 0), as parts of JSON object members to send one
// after the other: the first block's rows after the position, then each later block's kept bytes.
export function modernAfter(c: Kept, after: number): Buffer[] {
  const parts: Buffer[] = [];
  const add = (b: Buffer) => {
    if (!b.length) return;
    if (parts.length) parts.push(COMMA);
    parts.push(b);
  };
  let b = blockAfter(c.blocks, after);
  if (b < c.blocks.length) {
    const rows = c.blocks[b].rows;
    const i = firstAfter(rows, after);
    if (i === 0) add(blockBytes(c.blocks[b]));
    else {
      const entries: string[] = [];
      for (let j = i; j < rows.length; j++) if (!rows[j].replaced && rows[j].visible) entries.push(modernEntry(rows[j]));
      add(Buffer.from(entries.join(',')));
    }
    for (b++; b < c.blocks.length; b++) add(blockBytes(c.blocks[b]));
  }
  return parts;
}
