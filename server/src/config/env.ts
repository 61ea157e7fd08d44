import { z } from 'zod';
import { DEFAULT_OVERLAP_HOURS } from '../auth/lifetimes.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** A switch: `true`, `1` or `on` is on; `false`, `0` or `off` is off. */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off'])
    .transform((v) => ['true', '1', 'on'].includes(v))
    .default(fallback);
const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);

/** `kid:secret,kid:secret`: browser_token keys, the first one signs; HMAC keys shorter than 32 bytes are refused. */
const tokenSecrets = z.string().transform((s, ctx) => {
  const keys = s
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf(':');
      return { kid: at > 0 ? part.slice(0, at) : '', secret: at > 0 ? part.slice(at + 1) : '' };
    });
  if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'give at least one kid:secret' });
  for (const { kid, secret } of keys) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(kid)) ctx.addIssue({ code: 'custom', message: `kid "${kid}" must be 1-32 of [A-Za-z0-9_-] before the colon` });
    else if (Buffer.byteLength(secret) < 32) ctx.addIssue({ code: 'custom', message: `secret of kid "${kid}" must be at least 32 bytes` });
  }
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) ctx.addIssue({ code: 'custom', message: 'kids must be unique' });
  return keys;
});

/**
 * Every environment variable Vigil reads, with its default. This is the one place defaults live;
 * the README's configuration reference mirrors it.
 */
export const envSchema = z.object({
  /** TCP port of the HTTP server. */
  PORT: int(0, 65535).default(8080),
  /** Interface to bind; 127.0.0.1 keeps a trial install private, use 0.0.0.0 in containers. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** postgres://… selects PostgreSQL (node-postgres pool); unset selects the embedded PGlite database. */
  DATABASE_URL: z.string().url().optional(),
  /** postgres://… of a streaming replica of DATABASE_URL for GraphQL and /api reads; unset: they read the primary. */
  DATABASE_REPLICA_URL: z.string().url().optional(),
  /** Reporting reads are refused (503) while the replica is further behind the primary than this. */
  VIGIL_REPLICA_MAX_LAG_SECONDS: int(1, 86_400).default(30),
  /** Where the embedded database lives (ignored with DATABASE_URL). */
  VIGIL_DATA_DIR: z.string().min(1).default('./.vigil/data'),
  /** Free space (MiB) the embedded database's disk must keep; below it writes get 503 before PGlite meets ENOSPC. */
  VIGIL_DATA_DIR_MIN_FREE_MB: int(0, 1_000_000).default(64),
  /**
   * Whether each commit of the embedded database is flushed to the disk before its answer, as PostgreSQL does; off,
   * PGlite's own default, leaves that to the operating system: a crash of Vigil loses nothing, one of the machine may.
   */
  VIGIL_DATA_DIR_SYNC: flag(true),
  /** Seconds after which a held event loop ends `vigil serve`, and an unanswered PGlite statement its thread; 0: never. */
  VIGIL_WATCHDOG_SECONDS: int(0, 86_400).default(60),
  /** Path of a JSON or YAML file with behaviors, intelligence lists and score weights. */
  VIGIL_CONFIG: z.string().min(1).optional(),
  /** Proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For is believed. Empty: none. */
  VIGIL_TRUSTED_PROXIES: csv.default([]),
  /** Sustained requests per second allowed per key. 0 disables rate limiting. */
  VIGIL_RATE_LIMIT_RPS: int(0, 1_000_000).default(1000),
  /** Burst size per key above the sustained rate. */
  VIGIL_RATE_LIMIT_BURST: int(1, 10_000_000).default(2000),
  /** node-postgres pool size. */
  VIGIL_DB_POOL_SIZE: int(1, 200).default(10),
  /** PostgreSQL connections for GraphQL and /api reads, apart from ingestion's pool (VIGIL_DB_POOL_SIZE). */
  VIGIL_DB_REPORTING_POOL_SIZE: int(1, 100).default(3),
  /** statement_timeout of those reporting connections, ms: a longer read is cancelled with `query_too_expensive`. */
  VIGIL_REPORTING_STATEMENT_TIMEOUT_MS: int(100, 3_600_000).default(10_000),
  /** Embedded database only (it has no statement_timeout): the most rows one reporting statement may read. */
  VIGIL_REPORTING_MAX_SCAN_ROWS: int(100, 1_000_000_000).default(200_000),
  /** Received-order reads leave out events received in the last this many ms, which may still be being stored. */
  VIGIL_REPORTING_SETTLE_MS: int(0, 3_600_000).default(5_000),
  /** GraphQL operations costing at least VIGIL_GRAPHQL_EXPENSIVE_COST one principal may run at once; more get 429. */
  VIGIL_GRAPHQL_MAX_CONCURRENT: int(1, 1000).default(4),
  /** Cost from which a GraphQL operation counts as expensive (5,000: about five million rows read). */
  VIGIL_GRAPHQL_EXPENSIVE_COST: int(1, 1_000_000).default(5_000),
  /** Whether signed-in principals may introspect the GraphQL schema (`__schema`, `__type`). */
  VIGIL_GRAPHQL_INTROSPECTION: flag(true),
  /** Live feed (`eventAdded` over graphql-ws): subscriptions one process serves at once; more are refused (429). */
  VIGIL_LIVE_MAX_SUBSCRIPTIONS: int(1, 100_000).default(1000),
  /** Live feed subscriptions one supervisor account may hold at once in one process. */
  VIGIL_LIVE_MAX_SUBSCRIPTIONS_PER_ACCOUNT: int(1, 10_000).default(10),
  /** Events a subscriber may fall behind by before its connection is closed (4029, slow consumer). */
  VIGIL_LIVE_MAX_QUEUE: int(1, 1_000_000).default(1000),
  /** How often a live connection's token or session is checked again; a revoked or disabled one is closed (4403). */
  VIGIL_LIVE_RECHECK_SECONDS: int(1, 3600).default(30),
  /**
   * PostgreSQL: how long stored events wait to be announced to the live feed together, in one NOTIFY. Each NOTIFY is
   * a transaction with a commit record and a WAL flush, and wakes every listening process, so a short interval costs
   * the database a little for every event; it adds as much to live delivery. At most 5 s: well inside the 30 s a
   * process reads back after its listening connection was lost, and a burst of 5 s of events stays a burst.
   */
  VIGIL_LIVE_ANNOUNCE_MS: int(1, 5_000).default(50),
  /** Most events written in one group commit. */
  VIGIL_COMMIT_BATCH_MAX: int(1, 5000).default(500),
  /** Group commits that may run at once (PostgreSQL: at most the pool size less one; PGlite: at most 2). */
  VIGIL_COMMIT_CONCURRENCY: int(1, 64).default(4),
  /**
   * How long a group commit must have been in flight before another starts beside it (0: at once); what arrives
   * meanwhile waits and goes out in one larger, cheaper commit.
   */
  VIGIL_COMMIT_OVERLAP_MS: int(0, 60_000).default(50),
  /**
   * How long an event may wait for others to join its group commit (0: it goes as soon as no commit holds it). Under
   * a light load each commit would carry one or two events and cost a statement, a commit record and a flush each;
   * this much added latency lets them share one. Off by default: it trades latency for CPU.
   */
  VIGIL_COMMIT_LINGER_MS: int(0, 1_000).default(0),
  /** Entries of the per-process cache of device, handprint, registry and contact facts (pipeline/fact-cache.ts); 0: off. */
  VIGIL_FACT_CACHE_ENTRIES: int(0, 10_000_000).default(100_000),
  /** How often key usage (`last_used_at`) is written back, in seconds. */
  VIGIL_KEY_USAGE_FLUSH_SECONDS: int(1, 3600).default(30),
  /** Seconds a request's headers and body may take to arrive; a slower one is answered 408 and its connection closed. */
  VIGIL_REQUEST_TIMEOUT_SECONDS: int(1, 3600).default(30),
  /** pino log level. */
  VIGIL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Days within which events under two identities (or a refused registration) make a device `multi_user`. */
  VIGIL_MULTI_USER_WINDOW_DAYS: int(1, 3650).default(30),
  /** Events older than this many days (by their own time) are dropped by the daily retention run; 0 keeps them forever. */
  VIGIL_RETENTION_DAYS: int(0, 36_500).default(365),
  /** Delivered, dead and cancelled webhook messages (and their delivery log) older than this many days are deleted by the same run; 0 keeps them. */
  VIGIL_WEBHOOK_RETENTION_DAYS: int(0, 36_500).default(30),
  /** Seconds after start before the first retention run, plus a random part up to as many again; 0 runs it at start. */
  VIGIL_RETENTION_START_DELAY_SECONDS: int(0, 86_400).default(300),
  /** Lifetime of a console session from POST /api/auth/login, in hours. */
  VIGIL_SESSION_TTL_HOURS: int(1, 24 * 90).default(12),
  /**
   * Login attempts allowed per minute per client IP (a burst of as many, then this rate); half as many per IP and
   * username. Past it from one username across addresses, answers only slow down.
   */
  VIGIL_LOGIN_ATTEMPTS_PER_MINUTE: int(1, 10_000).default(10),
  /** Lifetime of a new API token when its creator gives none, in days; 0: tokens never expire by default. */
  VIGIL_API_TOKEN_DEFAULT_TTL_DAYS: int(0, 36_500).default(90),
  /** Page origins allowed to call /js/* (exact, `https://*.example.com`, or `*` for development). Empty: none. */
  VIGIL_JS_ALLOWED_ORIGINS: csv.default([]),
  /** browser_token signing keys `kid:secret,…` (secret ≥ 32 bytes); the first signs. Unset: generated once, kept in the database. */
  VIGIL_JS_TOKEN_SECRETS: tokenSecrets.optional(),
  /** Lifetime of a browser_token, seconds. */
  VIGIL_JS_TOKEN_TTL_SECONDS: int(60, 3600).default(600),
  /** How many POST /events may use one browser_token. */
  VIGIL_JS_TOKEN_MAX_USES: int(1, 1000).default(5),
  /** Extra roots for Android key attestation chains besides Google's (PEM text, or a PEM file's path): a private PKI, tests. */
  VIGIL_ATTESTATION_EXTRA_ROOTS: z.string().optional(),
  /** Secret mixed into handprint ids and lookup keys (≥ 16 chars). Unset: generated once, kept in the database. */
  VIGIL_HANDPRINT_SALT: z.string().min(16).optional(),
  /** POST /js/collect per client IP: sustained requests per second (0 disables) and burst. */
  VIGIL_JS_COLLECT_RPS: int(0, 1_000_000).default(1),
  VIGIL_JS_COLLECT_BURST: int(1, 10_000_000).default(20),
  /** POST /js/events per client IP: sustained requests per second (0 disables) and burst. */
  VIGIL_JS_EVENTS_RPS: int(0, 1_000_000).default(10),
  VIGIL_JS_EVENTS_BURST: int(1, 10_000_000).default(100),
  /** Hours a rotated key or API token keeps working beside its replacement, when the rotation names none; 0: none. */
  VIGIL_KEY_ROTATION_OVERLAP_HOURS: int(0, 720).default(DEFAULT_OVERLAP_HOURS),
  /** `1`: webhook endpoints may be private, loopback or link-local addresses (on-premise receivers). Default: refused. */
  VIGIL_WEBHOOK_ALLOW_PRIVATE: flag(false),
  /** Webhook messages this process sends at once; 0: it delivers none (another process does). */
  VIGIL_WEBHOOK_WORKERS: int(0, 64).default(4),
  /** Seconds a webhook receiver has to connect and answer; slower counts as a failed attempt. */
  VIGIL_WEBHOOK_TIMEOUT_SECONDS: int(1, 120).default(10),
  /** Attempts before a webhook message is dead-lettered. */
  VIGIL_WEBHOOK_MAX_ATTEMPTS: int(1, 100).default(10),
  /** Backoff of webhook retries: attempt n waits a random time up to min(max, base × 2^(n-1)) ms (full jitter). */
  VIGIL_WEBHOOK_RETRY_BASE_MS: int(1, 3_600_000).default(10_000),
  VIGIL_WEBHOOK_RETRY_MAX_MS: int(1, 86_400_000).default(21_600_000),
  /** How often each delivering process looks for due webhook messages (new ones also wake it at once). */
  VIGIL_WEBHOOK_POLL_MS: int(10, 600_000).default(1_000),
  /** Directory of pg_dump and pg_restore for `vigil backup`/`restore` on PostgreSQL. Unset: the server's major version under /usr/lib/postgresql, else PATH. */
  VIGIL_PG_BIN_DIR: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;
