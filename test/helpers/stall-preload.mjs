// Loaded into a test server's process only (node --import): a response to a request carrying the header
// x-test-stall-ms holds the event loop that long, synchronously, just before it is sent, as a request doing
// too much work at once would. Nothing in the server's own code can do this.
import http from 'node:http';

const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...args) {
  const ms = Number(this.req?.headers['x-test-stall-ms']);
  if (ms > 0) {
    const until = Date.now() + ms;
    while (Date.now() < until);
  }
  return end.apply(this, args);
};
