// `npm run bench [-- --quick]`: every benchmark script in turn, each against its own fresh server process.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = false;
for (const script of ['events.ts', 'messages.ts', 'presence.ts']) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, script), ...process.argv.slice(2)], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);
