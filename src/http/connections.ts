// Caps the connections one address may hold open, so that one client cannot take all of the server's sockets.
// A connection over the cap is answered 429 in the JSON envelope and closed; what it sends is never parsed.
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const BODY = JSON.stringify({ result: 'error', msg: 'Too many connections from this address', code: 'RATE_LIMIT_HIT' });
const REFUSAL = `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nConnection: close\r\n\r\n${BODY}`;

export function capConnectionsPerAddress(server: Server<typeof IncomingMessage, typeof ServerResponse>, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  // Registered after the HTTP server's own listener, which has already attached its parser.
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.removeAllListeners('data');
      socket.resume();
      socket.end(REFUSAL);
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
