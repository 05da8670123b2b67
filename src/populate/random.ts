// Deterministic randomness for `parlance populate`: the same seed gives the same organization. Each part of the
// plan draws from a stream of its own (derived from the seed and a label), so that asking for more messages
// leaves the users and channels as they were.
export type Random = () => number; // uniform in [0, 1)

// mulberry32: small, fast and good enough for test data.
export function random(seed: number): Random {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function stream(seed: number, label: string): Random {
  let h = Math.imul(seed | 0, 0x9e3779b1) ^ 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return random(h);
}

export const int = (rnd: Random, n: number) => Math.floor(rnd() * n);
export const pick = <T>(rnd: Random, items: readonly T[]): T => items[int(rnd, items.length)];

export function shuffle<T>(rnd: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = int(rnd, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

// Ranks 0 … n-1 drawn with probability proportional to 1 / (rank + 1)^s, as words of real text are.
export function zipf(n: number, s = 1): (rnd: Random) => number {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let r = 0; r < n; r++) cdf[r] = acc += 1 / (r + 1) ** s;
  for (let r = 0; r < n; r++) cdf[r] /= acc;
  return (rnd) => {
    const x = rnd();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

// `total` split in proportion to `weights`, exactly (largest remainders).
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k++, left--) counts[order[k % order.length][1]]++;
  return counts;
}
