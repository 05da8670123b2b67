// Every setting has a default, an environment variable PARLANCE_<NAME>, and (for the server's address and data)
// a command-line flag. README.md lists them; keep the two in step.
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  externalUrl?: string;
  trustProxy?: string;
  fetchAllowedHosts?: string;
  logLevel: string;
  rateLimitPerMinute: number;
  rateLimitIpPerMinute: number;
  authFailuresPerWindow: number;
  authFailureWindowSeconds: number;
  channelCreationPerHour: number;
  maxFileUploadMib: number;
  uploadsDir?: string;
  realmUploadQuotaMib: number;
  uploadLimitMibPerHour: number;
  resumableUploadExpirySeconds: number;
  unclaimedAttachmentDays: number;
  storageSweepSeconds: number;
  shutdownGraceSeconds: number;
  argon2MemoryKib: number;
  heartbeatSeconds: number;
  eventCoalesceMs: number;
  queueIdleTimeoutSeconds: number;
  queueGcIntervalSeconds: number;
  maxQueueLength: number;
  maxQueuesPerUser: number;
  maxChannelSizeForTyping: number;
  userLimitForPresenceEvents: number;
  maxQueuedEvents: number;
  eventLogPollMs: number;
  scheduledPollMs: number;
  invitationLinkValidityMinutes: number;
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  idleTimeoutSeconds: number;
  maxConnectionsPerIp: number;
  deleteTopicBudgetSeconds: number;
  smtpUrl?: string;
  mailFrom?: string;
  mailPollMs: number;
  missedMessageDelaySeconds?: number;
  pushBouncerUrl?: string;
  pushBouncerOrgId?: string;
  pushBouncerOrgKey?: string;
  dbPoolSize: number;
  readPoolSize?: number;
  eventLoopWarnMs: number;
  sessionDays: number;
  emailGatewayDomain?: string;
  emailGatewayListen?: string;
  emailGatewayMaxMib: number;
}

interface Setting {
  key: keyof Config;
  env: string;
  kind: 'string' | 'int';
  default?: string | number;
  help: string;
}

export const SETTINGS: Setting[] = [
  { key: 'host', env: 'PARLANCE_HOST', kind: 'string', default: '127.0.0.1', help: 'address to listen on' },
  { key: 'port', env: 'PARLANCE_PORT', kind: 'int', default: 9991, help: 'port to listen on (0 picks a free one)' },
  { key: 'dataDir', env: 'PARLANCE_DATA', kind: 'string', default: './data', help: 'data directory (SQLite file)' },
  { key: 'databaseUrl', env: 'DATABASE_URL', kind: 'string', help: 'PostgreSQL URL; SQLite in the data directory when unset (PARLANCE_DATABASE_URL also works)' },
  { key: 'redisUrl', env: 'REDIS_URL', kind: 'string', help: 'Redis URL; when set, rate limits and event notifications are shared with the other server processes (PARLANCE_REDIS_URL also works)' },
  { key: 'redisPrefix', env: 'PARLANCE_REDIS_PREFIX', kind: 'string', default: 'parlance:', help: 'prefix of every Redis key and channel, so that several installations can share one Redis' },
  { key: 'trustProxy', env: 'PARLANCE_TRUST_PROXY', kind: 'string', help: 'reverse proxies whose X-Forwarded-For names the client (for the per-IP limit): their addresses or CIDR ranges, comma-separated, or true for any' },
  { key: 'externalUrl', env: 'PARLANCE_EXTERNAL_URL', kind: 'string', help: "public base URL, for realm_url, links in notices and bot addresses (organizations with a subdomain get it in front); the address the server listens on when unset, with a warning at start-up (never a request's Host)" },
  { key: 'fetchAllowedHosts', env: 'PARLANCE_FETCH_ALLOWED_HOSTS', kind: 'string', help: 'hosts (names) or addresses and CIDR ranges, comma-separated, that server-side fetches (link previews) may reach although private, loopback or link-local' },
  { key: 'logLevel', env: 'PARLANCE_LOG_LEVEL', kind: 'string', default: 'info', help: 'pino log level (silent, error, warn, info, debug)' },
  { key: 'rateLimitPerMinute', env: 'PARLANCE_RATE_LIMIT', kind: 'int', default: 200, help: 'requests per minute per user; 0 disables the per-user and per-IP limits' },
  { key: 'rateLimitIpPerMinute', env: 'PARLANCE_RATE_LIMIT_IP', kind: 'int', default: 100, help: 'unauthenticated requests per minute per IP address' },
  { key: 'authFailuresPerWindow', env: 'PARLANCE_AUTH_FAILURE_LIMIT', kind: 'int', default: 5, help: 'failed password checks (fetch_api_key, PATCH /settings) per account and window; 0 disables' },
  { key: 'authFailureWindowSeconds', env: 'PARLANCE_AUTH_FAILURE_WINDOW_SECONDS', kind: 'int', default: 1800, help: 'window of the failed-login limit' },
  { key: 'channelCreationPerHour', env: 'PARLANCE_CHANNEL_CREATION_LIMIT', kind: 'int', default: 100, help: 'channels one user may create per hour; 0 disables (as does PARLANCE_RATE_LIMIT=0)' },
  { key: 'maxFileUploadMib', env: 'PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB', kind: 'int', default: 25, help: 'largest upload; request bodies may be 1 MiB larger' },
  { key: 'uploadsDir', env: 'PARLANCE_UPLOADS_DIR', kind: 'string', help: 'where uploaded files, avatars and custom emoji are kept; the data directory when unset (share it between server processes)' },
  { key: 'realmUploadQuotaMib', env: 'PARLANCE_REALM_UPLOAD_QUOTA_MIB', kind: 'int', default: 5120, help: "each organization's upload quota (files, resumable uploads in progress, custom emoji); 0 for none" },
  { key: 'uploadLimitMibPerHour', env: 'PARLANCE_UPLOAD_LIMIT_MIB_PER_HOUR', kind: 'int', default: 1024, help: 'bytes one user may upload per hour (files, avatars, custom emoji), in MiB; 0 for no limit' },
  { key: 'resumableUploadExpirySeconds', env: 'PARLANCE_RESUMABLE_UPLOAD_EXPIRY_SECONDS', kind: 'int', default: 86400, help: 'an unfinished resumable upload is deleted this long after it started; 0: never' },
  { key: 'unclaimedAttachmentDays', env: 'PARLANCE_UNCLAIMED_ATTACHMENT_DAYS', kind: 'int', default: 35, help: 'an uploaded file no message links to is deleted once this old; 0: never' },
  { key: 'storageSweepSeconds', env: 'PARLANCE_STORAGE_SWEEP_SECONDS', kind: 'int', default: 60, help: 'how often expired resumable uploads and old unclaimed files are looked for (at least 1)' },
  { key: 'shutdownGraceSeconds', env: 'PARLANCE_SHUTDOWN_GRACE_SECONDS', kind: 'int', default: 10, help: 'how long SIGTERM waits for in-flight requests' },
  { key: 'argon2MemoryKib', env: 'PARLANCE_ARGON2_MEMORY_KIB', kind: 'int', default: 19456, help: 'argon2id memory cost for password hashes' },
  { key: 'heartbeatSeconds', env: 'PARLANCE_HEARTBEAT_SECONDS', kind: 'int', default: 50, help: 'a parked GET /events gets a heartbeat after this long' },
  { key: 'eventCoalesceMs', env: 'PARLANCE_EVENT_COALESCE_MS', kind: 'int', default: 20, help: 'new events for a queue answered less than this long ago wait out the rest of that time, so that each answer carries more' },
  { key: 'queueIdleTimeoutSeconds', env: 'PARLANCE_QUEUE_IDLE_TIMEOUT_SECONDS', kind: 'int', default: 600, help: 'default idle time before an event queue is collected' },
  { key: 'queueGcIntervalSeconds', env: 'PARLANCE_QUEUE_GC_INTERVAL_SECONDS', kind: 'int', default: 60, help: 'how often idle event queues are looked for' },
  { key: 'maxQueueLength', env: 'PARLANCE_MAX_QUEUE_LENGTH', kind: 'int', default: 10000, help: 'events a queue may hold; a queue that overflows is collected' },
  { key: 'maxChannelSizeForTyping', env: 'PARLANCE_MAX_CHANNEL_SIZE_FOR_TYPING', kind: 'int', default: 100, help: "channels with more active subscribers than this get no typing notifications (the reference's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS)" },
  { key: 'userLimitForPresenceEvents', env: 'PARLANCE_USER_LIMIT_FOR_PRESENCE_EVENTS', kind: 'int', default: 100, help: "organizations whose users would be told of more than this many get no event when someone comes online (the reference's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS); clients learn it from their own presence pings" },
  { key: 'maxQueuesPerUser', env: 'PARLANCE_MAX_QUEUES_PER_USER', kind: 'int', default: 50, help: "live event queues one user may have; registering another collects the user's least recently polled one" },
  { key: 'maxQueuedEvents', env: 'PARLANCE_MAX_QUEUED_EVENTS', kind: 'int', default: 2000000, help: "events one server process's queues may hold together; past it the queues holding the most are collected" },
  { key: 'eventLogPollMs', env: 'PARLANCE_EVENT_LOG_POLL_MS', kind: 'int', default: 250, help: 'how often the event log is read for events written by other processes (CLI, other servers)' },
  { key: 'scheduledPollMs', env: 'PARLANCE_SCHEDULED_POLL_MS', kind: 'int', default: 1000, help: 'how often due scheduled messages are looked for' },
  { key: 'invitationLinkValidityMinutes', env: 'PARLANCE_INVITATION_LINK_VALIDITY_MINUTES', kind: 'int', default: 14400, help: 'how long an invitation link is valid when its creator names no time; 0: forever' },
  { key: 'headersTimeoutSeconds', env: 'PARLANCE_HEADERS_TIMEOUT_SECONDS', kind: 'int', default: 30, help: "a request's headers must arrive within this long" },
  { key: 'requestTimeoutSeconds', env: 'PARLANCE_REQUEST_TIMEOUT_SECONDS', kind: 'int', default: 120, help: 'a whole request (headers and body) must arrive within this long; 0 for no limit' },
  { key: 'idleTimeoutSeconds', env: 'PARLANCE_IDLE_TIMEOUT_SECONDS', kind: 'int', default: 120, help: 'a connection silent this long is closed (never less than the heartbeat interval plus 10% and 5 s)' },
  { key: 'smtpUrl', env: 'PARLANCE_SMTP_URL', kind: 'string', help: 'SMTP server for outgoing mail (smtp://user:pass@host:587, smtps://…); unset: mails are written as .eml files to the outbox/ folder of the data directory, and logged' },
  { key: 'mailFrom', env: 'PARLANCE_MAIL_FROM', kind: 'string', help: "sender address of outgoing mail; noreply@ the organization URL's host when unset" },
  { key: 'mailPollMs', env: 'PARLANCE_MAIL_POLL_MS', kind: 'int', default: 1000, help: 'how often queued mail due for (another) attempt is looked for' },
  { key: 'missedMessageDelaySeconds', env: 'PARLANCE_MISSED_MESSAGE_DELAY_SECONDS', kind: 'int', help: "how long a direct message or mention waits, unread, before it is mailed (with the others of its batch); unset: each user's email_notifications_batching_period_seconds (120 s by default, as the reference's)" },
  { key: 'deleteTopicBudgetSeconds', env: 'PARLANCE_DELETE_TOPIC_SECONDS', kind: 'int', default: 50, help: 'how long one POST /streams/{id}/delete_topic deletes (in batches of 100) before answering complete: false' },
  { key: 'pushBouncerUrl', env: 'PARLANCE_PUSH_BOUNCER_URL', kind: 'string', help: "push notification bouncer (the reference's protocol, e.g. https://push.zulipchat.com); unset: no push notifications are sent (logged)" },
  { key: 'pushBouncerOrgId', env: 'PARLANCE_PUSH_BOUNCER_ORG_ID', kind: 'string', help: "this server's id at the bouncer (the reference's ZULIP_ORG_ID)" },
  { key: 'pushBouncerOrgKey', env: 'PARLANCE_PUSH_BOUNCER_ORG_KEY', kind: 'string', help: "this server's key at the bouncer (the reference's ZULIP_ORG_KEY)" },
  { key: 'dbPoolSize', env: 'PARLANCE_DB_POOL_SIZE', kind: 'int', default: 10, help: 'PostgreSQL: connections for writes and short reads' },
  { key: 'readPoolSize', env: 'PARLANCE_READ_POOL_SIZE', kind: 'int', help: 'connections for long reads (histories, searches, register): worker threads on SQLite (default: the number of CPUs plus one, at most 4), a second pool on PostgreSQL (default 10); register snapshots take all but one' },
  { key: 'maxConnectionsPerIp', env: 'PARLANCE_MAX_CONNECTIONS_PER_IP', kind: 'int', default: 500, help: 'connections one IP address may hold open; 0 for no limit' },
  { key: 'eventLoopWarnMs', env: 'PARLANCE_EVENT_LOOP_WARN_MS', kind: 'int', default: 100, help: 'an event-loop stall longer than this is logged (warn) with the requests running then; 0 turns the check off' },
  { key: 'emailGatewayDomain', env: 'PARLANCE_EMAIL_GATEWAY_DOMAIN', kind: 'string', help: "domain of the channels' e-mail addresses (GET /streams/{id}/email_address); unset: the e-mail gateway is off" },
  { key: 'emailGatewayListen', env: 'PARLANCE_EMAIL_GATEWAY_LISTEN', kind: 'string', help: 'host:port where this process receives mail for the channels (SMTP); unset: none' },
  { key: 'emailGatewayMaxMib', env: 'PARLANCE_EMAIL_GATEWAY_MAX_MIB', kind: 'int', default: 35, help: 'largest mail the gateway accepts, attachments and their encoding included' },
  { key: 'sessionDays', env: 'PARLANCE_SESSION_DAYS', kind: 'int', default: 14, help: 'a browser session ends after this many days without use (at least 1)' },
];

export function loadConfig(overrides: Partial<Record<keyof Config, string | number | undefined>> = {}, env = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const s of SETTINGS) {
    let value: string | number | undefined = overrides[s.key] ?? env[s.env];
    if (value === undefined && s.key === 'databaseUrl') value = env.PARLANCE_DATABASE_URL;
    if (value === undefined && s.key === 'redisUrl') value = env.PARLANCE_REDIS_URL;
    if (value === undefined || value === '') value = s.default;
    if (value === undefined) continue;
    if (s.kind === 'int') {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(n) || n < 0) throw new Error(`${s.env} must be a non-negative integer, got ${JSON.stringify(value)}`);
      out[s.key] = n;
    } else out[s.key] = String(value);
  }
  return out as unknown as Config;
}

// A parked GET /events is silent until its heartbeat (up to 10% late): an idle connection is never cut before.
export function idleTimeoutSeconds(config: Config): number {
  return Math.max(config.idleTimeoutSeconds, Math.ceil(config.heartbeatSeconds * 1.1) + 5);
}

// Each organization's upload quota in MiB (register's realm_upload_quota_mib): null for none.
export function realmUploadQuotaMib(config: Config): number | null {
  return config.realmUploadQuotaMib > 0 ? config.realmUploadQuotaMib : null;
}

// Clients use this as their HTTP timeout for GET /events, so it must exceed the heartbeat interval.
export function longpollTimeoutSeconds(config: Config): number {
  return Math.max(90, config.heartbeatSeconds + 30);
}
