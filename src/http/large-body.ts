// A JSON answer of megabytes (a register in an organization of 50,000 users is 20 MB) goes out in parts, each
// encoded as the socket takes it: encoded and written in one piece, it held the event loop 100–200 ms. Parts never
// split a surrogate pair, so every part is valid UTF-8 on its own. Sent chunked (no Content-Length), which spares
// counting the bytes of the whole text first.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

const IN_ONE_PIECE = 1 << 20;
const PART = 1 << 20;

// Bytes in parts (a presence answer: mostly kept blocks) are written as they are, one after the other: joined, a
// 669 KB answer was copied once more and left as much garbage, at every ping of 10,000 users.
const JOINED = 64 << 10;

export function sendJsonText(reply: FastifyReply, text: string | Buffer[]): FastifyReply {
  reply.type('application/json; charset=utf-8');
  if (Array.isArray(text)) {
    const size = text.reduce((n, b) => n + b.length, 0);
    if (size <= JOINED) return reply.send(Buffer.concat(text, size));
    reply.header('Content-Length', size);
    return reply.send(Readable.from(text, { objectMode: false }));
  }
  if (text.length <= IN_ONE_PIECE) return reply.send(text);
  let at = 0;
  const parts = new Readable({
    read() {
      if (at >= text.length) {
        this.push(null);
        return;
      }
      let end = Math.min(text.length, at + PART);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      this.push(Buffer.from(text.slice(at, end), 'utf8'));
      at = end;
    },
  });
  return reply.send(parts);
}
