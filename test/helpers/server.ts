// Starts a real server process on an ephemeral loopback port over a fresh database seeded with named users of
// every role, a bot, and a second organization. Tests talk to it over HTTP only.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { openApp } from '../../src/server.js';
import type { App } from '../../src/app.js';
import { doCreateRealm } from '../../src/actions/realms.js';
import { doCreateUser } from '../../src/actions/users.js';
import { ROLE } from '../../src/store/users.js';
import { Client } from './client.js';
import { freshDatabase, type TestDatabase } from './database.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/parlance.js');

export interface SeedUser {
  id: number;
  email: string;
  apiKey: string;
  password: string;
  fullName: string;
  role: number;
}

export const PASSWORD = 'correct horse battery';
export type SeedName = 'desdemona' | 'iago' | 'shiva' | 'hamlet' | 'cordelia' | 'polonius' | 'bot' | 'lear';

const SEED: { name: Exclude<SeedName, 'desdemona' | 'lear'>; fullName: string; role: number; bot?: boolean }[] = [
  { name: 'iago', fullName: 'Iago', role: ROLE.administrator },
  { name: 'shiva', fullName: 'Shiva', role: ROLE.moderator },
  { name: 'hamlet', fullName: 'King Hamlet', role: ROLE.member },
  { name: 'cordelia', fullName: 'Cordelia, Lear\'s daughter', role: ROLE.member },
  { name: 'polonius', fullName: 'Polonius', role: ROLE.guest },
  { name: 'bot', fullName: 'Welcome Bot', role: ROLE.member, bot: true },
];

export interface StartOptions {
  env?: Record<string, string>;
  seed?: boolean;
}

export class TestServer {
  url = '';
  proc?: ChildProcess;
  users = {} as Record<SeedName, SeedUser>;
  stdout = '';
  stderr = '';

  constructor(readonly db: TestDatabase, readonly env: Record<string, string>) {}

  get childEnv(): Record<string, string> {
    return {
      ...(process.env as Record<string, string>),
      PARLANCE_DATA: this.db.dataDir,
      DATABASE_URL: this.db.databaseUrl ?? '',
      PARLANCE_HOST: '127.0.0.1',
      // A restarted server comes back on the same port, so clients keep their URL.
      PARLANCE_PORT: this.url ? new URL(this.url).port : '0',
      PARLANCE_LOG_LEVEL: 'warn',
      PARLANCE_RATE_LIMIT: '0',
      PARLANCE_ARGON2_MEMORY_KIB: '1024',
      // Test servers may share one Redis (REDIS_URL); each keeps to its own keys.
      PARLANCE_REDIS_PREFIX: `${path.basename(this.db.dataDir)}:`,
      PARLANCE_MAX_CONNECTIONS_PER_IP: '0', // tests and benchmarks hold many connections from one address
      ...this.env,
    };
  }

  async seed(): Promise<void> {
    const config = loadConfig({}, { ...this.childEnv, PARLANCE_PORT: '0' });
    const { app, database } = await openApp({ ...config, logLevel: 'silent' });
    try {
      const domain = 'zulip.example.com';
      const { owner } = await doCreateRealm(app, {
        name: 'Zulip Dev',
        subdomain: '',
        owner: { email: `desdemona@${domain}`, fullName: 'Desdemona', password: PASSWORD },
      });
      this.users.desdemona = { id: owner.id, email: owner.email, apiKey: owner.apiKey, password: PASSWORD, fullName: 'Desdemona', role: ROLE.owner };
      const realm = (await import('../../src/store/realms.js')).findRealm;
      const zulip = (await realm(app.db, owner.realmId))!;
      for (const s of SEED) {
        const u = await doCreateUser(app, zulip, {
          email: `${s.name}@${domain}`,
          fullName: s.fullName,
          password: s.bot ? null : PASSWORD,
          role: s.role as never,
          isBot: s.bot,
          botOwnerId: s.bot ? this.users.desdemona.id : null,
        });
        this.users[s.name] = { id: u.id, email: u.email, apiKey: u.apiKey, password: PASSWORD, fullName: s.fullName, role: s.role };
      }
      const other = await doCreateRealm(app, {
        name: 'Lear & Co.',
        subdomain: 'lear',
        owner: { email: 'king@lear.example.com', fullName: 'King Lear', password: PASSWORD },
      });
      this.users.lear = { id: other.owner.id, email: other.owner.email, apiKey: other.owner.apiKey, password: PASSWORD, fullName: 'King Lear', role: ROLE.owner };
    } finally {
      app.limiter.close();
      await database.close();
    }
  }

  // Opens this server's database in the test process (as the command-line tools do), for changes that have no
  // API yet, such as deactivating a user or an organization.
  async withApp<T>(fn: (app: App) => Promise<T>): Promise<T> {
    const config = loadConfig({}, { ...this.childEnv, PARLANCE_PORT: '0' });
    const { app, database } = await openApp({ ...config, logLevel: 'silent' });
    try {
      return await fn(app);
    } finally {
      app.limiter.close();
      await database.close();
    }
  }

  async start(): Promise<void> {
    // PARLANCE_SERVER_NODE_ARGS passes flags to the server's node, e.g. --cpu-prof for the benchmarks;
    // PARLANCE_SERVER_WRAPPER runs it under another program, e.g. `valgrind --tool=callgrind`.
    const nodeArgs = process.env.PARLANCE_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const wrapper = process.env.PARLANCE_SERVER_WRAPPER?.split(' ').filter(Boolean) ?? [];
    const command = [...wrapper, process.execPath, ...nodeArgs, BIN, 'serve'];
    const proc = spawn(command[0], command.slice(1), { env: this.childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    proc.stdout!.setEncoding('utf8');
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (d: string) => (this.stderr += d));
    this.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${this.stdout}\n${this.stderr}`)), wrapper.length ? 600_000 : 20_000);
      proc.stdout!.on('data', (d: string) => {
        this.stdout += d;
        const m = /Parlance listening on (http:\/\/[^\s]+)/.exec(this.stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${this.stdout}\n${this.stderr}`));
      });
    });
  }

  // Resolves with the exit code once the process has stopped.
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return proc?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.kill(signal);
    return exited;
  }

  // Another server process over the same database (and Redis), as behind a load balancer. Stop it with
  // `stop`: `close` would drop the database the two share.
  async startPeer(env: Record<string, string> = {}): Promise<TestServer> {
    const peer = new TestServer(this.db, { ...this.env, ...env });
    peer.users = this.users;
    await peer.start();
    return peer;
  }

  async restart(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.stop(signal);
    this.stdout = '';
    await this.start();
  }

  as(name: SeedName, encoding: 'urlencoded' | 'multipart' = 'urlencoded'): Client {
    const u = this.users[name];
    const host = name === 'lear' ? `lear.${new URL(this.url).host}` : undefined;
    return new Client(this.url, { email: u.email, apiKey: u.apiKey }, encoding, host);
  }

  anon(encoding: 'urlencoded' | 'multipart' = 'urlencoded'): Client {
    return new Client(this.url, undefined, encoding);
  }

  async close(): Promise<void> {
    await this.stop('SIGKILL');
    await this.db.drop();
  }
}

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const server = new TestServer(await freshDatabase(), opts.env ?? {});
  if (opts.seed !== false) await server.seed();
  await server.start();
  return server;
}
