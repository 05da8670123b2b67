// The ceiling: a bare node:http server answering every request with a small JSON body, the most any HTTP
// server on this machine and Node can do. Run as a child process by bench/ceiling.ts; prints its port.
import http from 'node:http';

const body = JSON.stringify({ result: 'success', msg: '' });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on ${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => process.exit(0));
