// Default avatars and organization icons, drawn here rather than fetched from an outside service: a symmetric
// 5×5 pattern in one colour on a light ground, fixed by its seed, as a square PNG of the size asked for.
import crypto from 'node:crypto';
import { loadSharp } from './sharp.js';

const GRID = 5;
const PAD = 1; // cells of margin on each side

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

// Generated images are cheap but asked for on every screen: the last few hundred are kept.
const cache = new Map<string, Promise<Buffer>>();
const CACHE_SIZE = 500;

export async function identiconPng(seed: string, size: number): Promise<Buffer> {
  const key = `${size} ${seed}`;
  let png = cache.get(key);
  if (png) return png;
  png = draw(seed, size);
  cache.set(key, png);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  png.catch(() => cache.delete(key));
  return png;
}

async function draw(seed: string, size: number): Promise<Buffer> {
  const hash = crypto.createHash('sha256').update(seed).digest();
  const ink = hslToRgb((hash.readUInt16BE(0) % 360), 0.55, 0.5);
  const ground: [number, number, number] = [240, 240, 240];
  const side = GRID + 2 * PAD;
  const pixels = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const gx = x - PAD;
      const gy = y - PAD;
      let on = false;
      if (gx >= 0 && gx < GRID && gy >= 0 && gy < GRID) {
        const col = gx < 3 ? gx : GRID - 1 - gx; // mirrored left to right
        const bit = gy * 3 + col;
        on = ((hash[2 + (bit >> 3)] >> (bit & 7)) & 1) === 1;
      }
      pixels.set(on ? ink : ground, (y * side + x) * 3);
    }
  }
  const sharp = await loadSharp();
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).resize(size, size, { kernel: 'nearest' }).png().toBuffer();
}
