// The ceiling every throughput is compared with: a bare node:http hello-world (bench/hello.ts, its own process)
// under closed-loop keep-alive GETs from a load process.
// Usage: node --import tsx bench/ceiling.ts [--quick]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAgent } from './agents.js';
import { cpuMs } from './server.js';
import { report } from './report.js';

const quick = process.argv.includes('--quick');
const here = path.dirname(fileURLToPath(import.meta.url));

const hello = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'hello.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((resolve) => hello.stdout!.on('data', (d: Buffer) => {
  const m = /listening on (\d+)/.exec(d.toString());
  if (m) resolve(m[1]);
}));
const agent = await startAgent();
try {
  const url = `http://127.0.0.1:${port}`;
  await agent.call('blast', { url, path: '/', concurrency: 64, seconds: 1 }); // warm-up
  const cpu0 = cpuMs(hello.pid!);
  const r = await agent.call('blast', { url, path: '/', concurrency: 64, seconds: quick ? 3 : 10 });
  const serverCpu = (cpuMs(hello.pid!) - cpu0) / 10 / r.seconds;
  const rate = r.requests / r.seconds;
  report([{
    id: 'ceiling', figure: 'bare node:http hello-world, 64 keep-alive connections: requests/s', result: `${rate.toFixed(0)}/s (server ${serverCpu.toFixed(0)}% CPU, load ${(r.cpuMs / 10 / r.seconds).toFixed(0)}%)`, rate,
  }]);
} finally {
  await agent.stop();
  hello.kill('SIGTERM');
}
process.exit(0);
