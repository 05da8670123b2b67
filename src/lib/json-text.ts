// JSON already serialized, to be placed as is into a response (src/http/server.ts): an event sent to a hundred
// queues is serialized once, not once per poll that carries it.
import { Pacer } from './pace.js';

export class JsonText {
  constructor(readonly text: string) {}
}

// JSON already encoded as UTF-8, in parts sent one after the other: a presence answer is mostly bytes kept from
// earlier answers (src/state/presence-log.ts), which would otherwise be joined, encoded and counted again.
export class JsonBytes {
  constructor(readonly parts: Buffer[]) {}
}

// Past this many elements, an array or object of a response is serialized in slices (POST /register of an
// organization of 50,000 users is 20 MB of JSON, 150 ms of JSON.stringify in one piece).
const LARGE = 2000;
const PER_SLICE = 500;

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonText) && !(v instanceof JsonBytes);

function isLarge(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > LARGE;
  if (!isPlain(v)) return false;
  let n = 0;
  for (const _ in v) if (++n > LARGE) return true;
  return false;
}

function text(v: unknown): string | undefined {
  if (v instanceof JsonBytes) return Buffer.concat(v.parts).toString();
  return v instanceof JsonText ? v.text : JSON.stringify(v);
}

// `{"result":…, ...}` as bytes in parts, the parts of JsonBytes values among them as they are (not copied).
function bytesWithParts(body: Record<string, unknown>): Buffer[] {
  const parts: Buffer[] = [];
  let pending = '{';
  let sep = '';
  for (const [k, v] of Object.entries(body)) {
    const t = v instanceof JsonBytes ? '' : text(v);
    if (t === undefined) continue;
    pending += `${sep}${JSON.stringify(k)}:${t}`;
    sep = ',';
    if (v instanceof JsonBytes) {
      parts.push(Buffer.from(pending), ...v.parts);
      pending = '';
    }
  }
  parts.push(Buffer.from(`${pending}}`));
  return parts;
}

// `{"result":…, ...}` with JsonText values spliced in; other values as JSON.stringify writes them.
export function stringifyWithText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const t = text(v);
    if (t !== undefined) parts.push(`${JSON.stringify(k)}:${t}`);
  }
  return `{${parts.join(',')}}`;
}

// A response body's text when it needs more than JSON.stringify (null otherwise): JSON text or bytes to splice in,
// or a large value to serialize in slices.
export function serializeBody(body: Record<string, unknown>): string | Buffer[] | Promise<string> | null {
  const values = Object.values(body);
  if (values.some((v) => v instanceof JsonBytes)) return bytesWithParts(body);
  if (values.some((v) => isLarge(v) || (isPlain(v) && Object.values(v).some(isLarge)))) return stringifyInSlices(body);
  return values.some((v) => v instanceof JsonText) ? stringifyWithText(body) : null;
}

// The same text as stringifyWithText, made in slices of a few hundred elements of each large array or object
// (one level down as well: register's blocks hold the large lists), yielding to the event loop between them.
export async function stringifyInSlices(body: Record<string, unknown>): Promise<string> {
  const pacer = new Pacer();
  const value = async (v: unknown, depth: number): Promise<string | undefined> => {
    if (!isLarge(v) && !(depth < 2 && isPlain(v) && Object.values(v).some(isLarge))) return text(v);
    if (Array.isArray(v)) {
      const parts: string[] = [];
      for (let i = 0; i < v.length; i += PER_SLICE) {
        const slice = JSON.stringify(v.slice(i, i + PER_SLICE));
        if (slice.length > 2) parts.push(slice.slice(1, -1));
        await pacer.pause();
      }
      return `[${parts.join(',')}]`;
    }
    const parts: string[] = [];
    for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
      const t = await value(item, depth + 1);
      if (t !== undefined) parts.push(`${JSON.stringify(k)}:${t}`);
      if (pacer.due()) await pacer.pause();
    }
    return `{${parts.join(',')}}`;
  };
  return (await value(body, 0))!;
}
