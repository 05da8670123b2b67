// The `parlance` command: serve, create-realm, create-user, populate. Flags override PARLANCE_* environment variables.
import { parseArgs } from 'node:util';
import { loadConfig, SETTINGS, type Config } from './config.js';
import { openApp, startServer } from './server.js';
import { accessRealmBySubdomain, doCreateRealm, hasAnyRealm } from './actions/realms.js';
import { doCreateUser } from './actions/users.js';
import { doPopulate } from './actions/populate.js';
import { ALL_USER_CHANNELS } from './populate/plan.js';
import { randomToken } from './lib/secrets.js';
import { ROLE, type RoleName } from './store/users.js';
import { ApiError } from './lib/errors.js';

const USAGE = `Usage:
  parlance serve [--host H] [--port P] [--data DIR]
  parlance create-realm --name N --owner-email E --owner-name N --owner-password P [--subdomain S] [--json] [--data DIR]
  parlance create-user --email E --name N --password P --role owner|administrator|moderator|member|guest [--bot] [--realm S] [--json] [--data DIR]
  parlance populate --users N --channels N --messages N [--seed S] [--unread-dms N] [--big-topics N]
                    [--all-user-channels N] [--active-users N] [--json] [--data DIR]

Settings (environment):
${SETTINGS.map((s) => `  ${s.env.padEnd(38)} ${s.help}${s.default !== undefined ? ` (default ${s.default})` : ''}`).join('\n')}
`;

const common = { data: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } } as const;

function configFrom(values: { data?: string; host?: string; port?: string }): Config {
  return loadConfig({ dataDir: values.data, host: values.host, port: values.port });
}

function need(values: Record<string, unknown>, ...names: string[]): void {
  const missing = names.filter((n) => typeof values[n] !== 'string');
  if (missing.length) throw new Error(`missing ${missing.map((n) => `--${n}`).join(', ')}\n\n${USAGE}`);
}

// `cache`: keep the rows a serving process keeps (users, channels, groups…) — only for a command that is the
// database's one writer while it runs, such as populate, whose every channel would otherwise read all users again.
async function withApp<T>(config: Config, fn: (app: Awaited<ReturnType<typeof openApp>>['app']) => Promise<T>, cache = false): Promise<T> {
  const { app, database } = await openApp({ ...config, logLevel: 'silent' });
  if (cache) database.enableCache();
  try {
    return await fn(app);
  } finally {
    app.limiter.close();
    await database.close();
  }
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...common, host: { type: 'string' }, port: { type: 'string' } } });
  const config = configFrom(values);
  const running = await startServer(config);
  await seedFirstRun(running.app, running.url);
  process.stdout.write(`Parlance listening on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      running.app.log.info(`${signal}: finishing in-flight requests`);
      // Connections still busy after the grace period are cut, so that the process can exit.
      running.close().then(() => {
        running.http.server.closeAllConnections();
        resolve();
      }, (err) => {
        running.app.log.error({ err }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

// First start on an empty database: with PARLANCE_OWNER_EMAIL, an organization and its owner, with credentials
// printed once; without it, the browser creates them (the front page offers to, src/routes/first-start.ts).
async function seedFirstRun(app: Awaited<ReturnType<typeof openApp>>['app'], url: string): Promise<void> {
  if (await hasAnyRealm(app)) return;
  const email = process.env.PARLANCE_OWNER_EMAIL;
  if (!email) {
    process.stdout.write(`No organization yet: open ${url}/ in a browser to create your organization and its owner (or run \`parlance create-realm\`).\n`);
    return;
  }
  const password = randomToken(16);
  try {
    const { owner } = await doCreateRealm(app, {
      name: 'Parlance',
      subdomain: '',
      owner: { email, fullName: 'Organization Owner', password },
    });
    process.stdout.write(
      [
        'Created the organization "Parlance" and its owner:',
        `  e-mail:   ${owner.email}`,
        `  password: ${password}`,
        `  API key:  ${owner.apiKey}`,
        `Open ${url}/ in a browser and log in with this e-mail and password,`,
        `or try the API: curl -sSu ${owner.email}:${owner.apiKey} ${url}/api/v1/users/me`,
        '',
      ].join('\n'),
    );
  } catch (err) {
    // Another process seeded at the same moment.
    if (!(err instanceof ApiError)) throw err;
  }
}

async function createRealm(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...common,
      name: { type: 'string' },
      subdomain: { type: 'string', default: '' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      'owner-password': { type: 'string' },
    },
  });
  need(values, 'name', 'owner-email', 'owner-name', 'owner-password');
  const { realm, owner } = await withApp(configFrom(values), (app) =>
    doCreateRealm(app, {
      name: values.name!,
      subdomain: values.subdomain!,
      owner: { email: values['owner-email']!, fullName: values['owner-name']!, password: values['owner-password']! },
    }),
  );
  const out = { realm_id: realm.id, user_id: owner.id, email: owner.email, api_key: owner.apiKey };
  print(values.json, out, `Created organization ${realm.id} (${realm.stringId || 'default'}); owner ${owner.email} (user ${owner.id}), API key ${owner.apiKey}`);
  return 0;
}

async function createUser(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...common,
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', default: 'member' },
      bot: { type: 'boolean', default: false },
      realm: { type: 'string', default: '' },
    },
  });
  need(values, 'email', 'name');
  if (!values.bot) need(values, 'password');
  const role = values.role as RoleName;
  if (!(role in ROLE)) throw new Error(`--role must be one of ${Object.keys(ROLE).join(', ')}`);
  const user = await withApp(configFrom(values), async (app) => {
    const realm = await accessRealmBySubdomain(app, values.realm!);
    return doCreateUser(app, realm, {
      email: values.email!,
      fullName: values.name!,
      password: values.password ?? null,
      role: ROLE[role],
      isBot: values.bot,
    });
  });
  const out = { user_id: user.id, email: user.email, api_key: user.apiKey };
  print(values.json, out, `Created ${values.bot ? 'bot' : 'user'} ${user.email} (user ${user.id}), API key ${user.apiKey}`);
  return 0;
}

// A whole number from a flag, at least `min`.
function count(values: Record<string, unknown>, name: string, min: number, fallback?: number): number {
  const raw = values[name];
  if (raw === undefined && fallback !== undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return n;
}

async function populate(args: string[]): Promise<number> {
  const numbers = ['users', 'channels', 'messages', 'seed', 'unread-dms', 'big-topics', 'all-user-channels', 'active-users'] as const;
  const { values } = parseArgs({ args, options: { ...common, ...Object.fromEntries(numbers.map((n) => [n, { type: 'string' }])) } });
  need(values, 'users', 'channels', 'messages');
  const options = {
    users: count(values, 'users', 2),
    channels: count(values, 'channels', 1),
    messages: count(values, 'messages', 0),
    seed: count(values, 'seed', 0, 1),
    unreadDms: count(values, 'unread-dms', 0, 0),
    bigTopics: count(values, 'big-topics', 0, 1),
    allUserChannels: count(values, 'all-user-channels', 0, ALL_USER_CHANNELS),
    activeUsers: count(values, 'active-users', 0, 0),
  };
  if (options.unreadDms && options.users < 3) throw new Error('--unread-dms needs at least 3 users (group conversations)');
  const progress = values.json || !process.stderr.isTTY ? undefined : (line: string) => process.stderr.write(`${line}\n`);
  // Written by the organization's administrator, not by requests: no per-user limit applies (such as channels
  // created per hour).
  const out = await withApp({ ...configFrom(values), rateLimitPerMinute: 0 }, (app) => doPopulate(app, options, progress), true);
  print(values.json, out, `Populated the organization: ${out.messages.toLocaleString('en')} messages in ${out.seconds} s; owner ${out.owner.email} (user ${out.owner.user_id}), API key ${out.owner.api_key}; first member ${out.members[0]?.email} (user ${out.members[0]?.user_id}), API key ${out.members[0]?.api_key}`);
  return 0;
}

function print(json: boolean | undefined, out: object, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(out)}\n` : `${text}\n`);
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest);
      case 'create-realm':
        return await createRealm(rest);
      case 'create-user':
        return await createUser(rest);
      case 'populate':
        return await populate(rest);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(USAGE);
        return command ? 0 : 2;
      default:
        process.stderr.write(`unknown command ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    process.stderr.write(`parlance ${command}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
