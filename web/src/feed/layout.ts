// The arithmetic of the virtual list: where each row starts, and which rows a stretch of the list shows.

// tops[i] is where row i starts; tops[n] is the height of all rows.
export function layout(heights: number[]): Float64Array {
  const tops = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) tops[i + 1] = tops[i] + heights[i];
  return tops;
}

// The first row whose end is past `y` (binary search); the last row for a position past the end.
export function rowAt(tops: Float64Array, y: number): number {
  let lo = 0;
  let hi = Math.max(0, tops.length - 2);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The rows that meet [from, to], at most `max` of them (around the middle of the stretch when there are more).
export function visibleRange(tops: Float64Array, from: number, to: number, max: number): [number, number] {
  const n = tops.length - 1;
  if (n === 0) return [0, -1];
  let first = rowAt(tops, Math.max(0, from));
  let last = rowAt(tops, Math.max(0, to));
  if (last - first + 1 > max) {
    const mid = rowAt(tops, (Math.max(0, from) + Math.max(0, to)) / 2);
    first = Math.max(0, mid - (max >> 1));
    last = Math.min(n - 1, first + max - 1);
  }
  return [first, last];
}

export interface Layout {
  keys: number[];
  heights: Float64Array;
  tops: Float64Array;
}

// The layout of `keys`, reusing `prev` up to the first row whose key differs or that is at or past `dirtyFrom`
// (its height changed): only the rest is asked for (`heightOf(i)`) and summed again.
export function relayout(prev: Layout | null, keys: number[], dirtyFrom: number, heightOf: (i: number) => number): Layout {
  // Rows added before the old ones (a page of older messages): only theirs are asked for; the old rows shift.
  const added = prev ? keys.length - prev.keys.length : 0;
  if (prev && added > 0 && dirtyFrom >= prev.keys.length && keys[added] === prev.keys[0] && keys[keys.length - 1] === prev.keys[prev.keys.length - 1]) {
    const heights = new Float64Array(keys.length);
    const tops = new Float64Array(keys.length + 1);
    for (let i = 0; i < added; i++) {
      heights[i] = heightOf(i);
      tops[i + 1] = tops[i] + heights[i];
    }
    heights.set(prev.heights, added);
    const shift = tops[added];
    for (let i = 1; i < prev.tops.length; i++) tops[added + i] = prev.tops[i] + shift;
    return { keys, heights, tops };
  }
  let start = 0;
  if (prev) {
    const n = Math.min(prev.keys.length, keys.length);
    if (prev.keys === keys) start = n;
    else while (start < n && prev.keys[start] === keys[start]) start++;
    start = Math.min(start, dirtyFrom, n);
  }
  const heights = new Float64Array(keys.length);
  const tops = new Float64Array(keys.length + 1);
  if (prev && start > 0) {
    heights.set(prev.heights.subarray(0, start));
    tops.set(prev.tops.subarray(0, start + 1));
  }
  for (let i = start; i < keys.length; i++) {
    heights[i] = heightOf(i);
    tops[i + 1] = tops[i] + heights[i];
  }
  return { keys, heights, tops };
}
