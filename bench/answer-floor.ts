// The floor under B9's steady-state presence: a bare node:http server answering each POST with a 669 KB body (a
// presence answer of 10,000 entries), 167 requests a second (10,000 users once a minute) from keep-alive
// connections in another process. Prints the server's CPU per answer: what writing the bytes alone costs.
// Usage: node --import tsx bench/answer-floor.ts
import http from 'node:http';
import { spawn } from 'node:child_process';

const BYTES = 669_000;
const PER_SECOND = 10_000 / 60;
const COUNT = 3000;

// The server runs as plain JavaScript (no TypeScript loader in its process, which measurably slowed it).
const SERVER = `
const http = require('node:http');
const body = Buffer.alloc(${BYTES}, 'x');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('message', () => {
  const u = process.cpuUsage();
  process.send((u.user + u.system) / 1000);
});
`;

const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const one = () => new Promise<void>((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
    res.resume();
    res.on('end', resolve);
  });
  req.on('error', reject);
  req.end('status=active&last_update_id=1');
});
const serverCpu = () => new Promise<number>((resolve) => {
  child.once('message', (m) => resolve(m as number));
  child.send('cpu');
});
for (let i = 0; i < 300; i++) await one();
const cpu0 = await serverCpu();
const t0 = performance.now();
const all: Promise<void>[] = [];
for (let i = 0; i < COUNT; i++) {
  const wait = t0 + (i * 1000) / PER_SECOND - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  all.push(one());
}
await Promise.all(all);
const perAnswer = ((await serverCpu()) - cpu0) / COUNT;
console.log(`server CPU per ${BYTES.toLocaleString('en')}-byte answer: ${perAnswer.toFixed(3)} ms; at ${PER_SECOND.toFixed(0)}/s: ${((perAnswer * PER_SECOND) / 1000).toFixed(3)} cores`);
child.kill();
process.exit(0);
