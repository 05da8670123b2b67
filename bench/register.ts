// B6: POST /register with every block, in an organization of 1,000 users and 200 channels (50 subscribers each;
// the registering member is subscribed to 30 of them, which hold 6,000 messages, 300 of them unread).
// Usage: node --import tsx bench/register.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { startAgent } from './agents.js';
import { ms, percentiles, report, type Row } from './report.js';
import { bulkChannel, bulkMessages, bulkUsers, withServerApp } from './seed.js';
import { cpuMs, startBenchServer, stopServer } from './server.js';
import { streamRecipient } from '../src/store/messages.js';

const quick = process.argv.includes('--quick');
const USERS = 1000;
const CHANNELS = 200;

const server = await startBenchServer();
const agent = await startAgent();
const rows: Row[] = [];
try {
  const pid = server.proc!.pid!;
  const me = await withServerApp(server, async (app, realm, owner) => {
    const users = await bulkUsers(app, realm, USERS - 8); // the test helper seeds 8 users
    const me = users[0];
    for (let c = 0; c < CHANNELS; c++) {
      const members = Array.from({ length: 50 }, (_, i) => users[(c * 37 + i * 19) % users.length].id).filter((id) => id !== me.id);
      if (c < 30) members.push(me.id);
      const id = await bulkChannel(app, realm, owner, `channel ${c}`, [...new Set(members)]);
      if (c < 30) {
        const recipientId = await app.db.transaction().execute((tx) => streamRecipient(tx, realm.id, id));
        const messages = Array.from({ length: 200 }, (_, i) => ({ senderId: members[i % 10], topic: `topic ${i % 20}`, content: `Message ${i} in channel ${c}` }));
        await bulkMessages(app, realm, { id, recipientId }, [...new Set(members)], messages.slice(0, 190));
        await bulkMessages(app, realm, { id, recipientId }, [...new Set(members)], messages.slice(190), new Set([me.id]));
      }
    }
    return me;
  });
  const count = quick ? 30 : 200;
  const cpu0 = cpuMs(pid);
  const r = await agent.call('registers', { url: server.url, auth: { email: me.email, apiKey: me.apiKey }, params: {}, count, warmup: 5 });
  const cpu = (cpuMs(pid) - cpu0) / (count + 5);
  const p = percentiles(r.latencies);
  rows.push({ id: 'B6', figure: `POST /register, every block, ${USERS.toLocaleString('en')} users and ${CHANNELS} channels: median (p99; server CPU; response size)`, target: 'median ≤ 100 ms', result: `${ms(p.p50)} (${ms(p.p99)}; ${ms(cpu)}; ${(r.bytes / 1024).toFixed(0)} KiB)`, met: p.p50 <= 100 });
} finally {
  await agent.stop();
  await stopServer(server);
}
report(rows);
process.exit(0);
