import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Accounts } from './auth/accounts.js';
import { sweepExpiries } from './auth/expiry-sweep.js';
import { KeyStore } from './auth/key-store.js';
import { SupervisorStore } from './auth/supervisor-store.js';
import { BehaviorDefinitions } from './behaviors/definitions.js';
import { createBehaviorsStage } from './behaviors/stage.js';
import type { Config } from './config/load.js';
import type { DatabaseHandle } from './db/handle.js';
import { openDatabase } from './db/open.js';
import { graphqlRoutes } from './graphql/server.js';
import { buildApp } from './http/app.js';
import { Metrics } from './http/metrics.js';
import { loginLimiters } from './http/rate-limit/login.js';
import { MemoryRateLimiter } from './http/rate-limit/memory.js';
import { noopRateLimiter } from './http/rate-limit/noop.js';
import { authRoutes } from './http/routes/auth.js';
import { deviceRoutes } from './http/routes/devices.js';
import { DeviceBinding } from './binding/binding.js';
import { trustedRoots } from './binding/roots.js';
import { createBindingStage } from './binding/stage.js';
import { eventExportRoutes } from './http/routes/event-export.js';
import { eventRoutes } from './http/routes/events.js';
import { jsRoutes } from './http/routes/js.js';
import { operationRoutes } from './http/routes/operations.js';
import { supervisorDeviceRoutes } from './http/routes/supervisor-devices.js';
import { Ingestor } from './ingest/ingestor.js';
import { LegacyHandprintLinks } from './handprint/legacy-links.js';
import { createBrowserSupport } from './js/browser.js';
import { EventFeed } from './live/event-feed.js';
import { autovacuumIds } from './pipeline/autovacuum.js';
import { dropOnChange, FactCache } from './pipeline/fact-cache.js';
import type { InsightStage } from './pipeline/stage.js';
import { RegistryRepository } from './registry/repository.js';
import { SupervisorDevices } from './registry/service.js';
import { createRegistryStage } from './registry/stage.js';
import { RetentionJob } from './retention/job.js';
import { contactStage } from './risk/contact/stage.js';
import { deviceIntegrityStage } from './risk/device/stage.js';
import { createNetworkStage } from './risk/intel/stage.js';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js';

const HOUR_MS = 60 * 60 * 1000;

export interface Vigil {
  app: FastifyInstance;
  database: DatabaseHandle;
  keys: KeyStore;
  ingestor: Ingestor;
  /** What `eventAdded` subscribers read. */
  feed: EventFeed;
  /** The facts group commits read, kept per process (FactCache). */
  facts: FactCache;
  /** The daily retention run (partitions ahead, old ones dropped). */
  retention: RetentionJob;
  /** Webhook subscriptions, their outbox and its delivery. */
  webhooks: Webhooks;
  /** Stops accepting requests, commits what is in flight, writes key usage, closes the database. */
  close(): Promise<void>;
}

export interface CreateVigilOptions {
  logger?: FastifyServerOptions['logger'];
  /** An already-open database (tests share one); otherwise one is opened from the config. */
  database?: DatabaseHandle;
}

/**
 * The insight stages, in the order they run. A new source of insight adds its stage here with one line
 * (registry state, behaviors, network intelligence, device integrity, e-mail and phone intelligence).
 */
export async function createStages(config: Config, database: DatabaseHandle): Promise<InsightStage[]> {
  return [
    createRegistryStage({ multiUserWindowDays: config.env.VIGIL_MULTI_USER_WINDOW_DAYS }),
    createBindingStage(),
    await createBehaviorsStage(config.file.behaviors, database),
    createNetworkStage({ intel: config.file.intel, configPath: config.env.VIGIL_CONFIG, trustedProxies: config.env.VIGIL_TRUSTED_PROXIES }),
    deviceIntegrityStage,
    contactStage,
  ];
}

/** The registry and supervisor parts REST and GraphQL share. */
function registryServices<T extends { config: Config; database: DatabaseHandle }>(options: T) {
  const env = options.config.env;
  const registry = new RegistryRepository(options.database);
  const perMinute = env.VIGIL_LOGIN_ATTEMPTS_PER_MINUTE;
  const supervisors = new SupervisorStore(options.database);
  return {
    ...options,
    registry,
    supervisors,
    accounts: new Accounts({
      database: options.database,
      supervisors,
      defaultTokenTtlDays: env.VIGIL_API_TOKEN_DEFAULT_TTL_DAYS,
      defaultOverlapHours: env.VIGIL_KEY_ROTATION_OVERLAP_HOURS,
    }),
    supervisorDevices: new SupervisorDevices(options.database, registry),
    binding: new DeviceBinding({ roots: trustedRoots(env.VIGIL_ATTESTATION_EXTRA_ROOTS) }),
    behaviorDefinitions: new BehaviorDefinitions(options.database.db),
    loginLimiters: loginLimiters(perMinute),
    sessionTtlMs: env.VIGIL_SESSION_TTL_HOURS * HOUR_MS,
  };
}

/**
 * Wires the real parts together: services, insight stages and routes are built here and nowhere else. The CLI
 * and the integration tests both start Vigil through here.
 */
export async function createVigil(config: Config, options: CreateVigilOptions = {}): Promise<Vigil> {
  const env = config.env;
  const database = options.database ?? (await openDatabase(env, { migrate: true, purpose: 'vigil serve' }));
  // Group commits report their transaction ids and snapshots, which lets them prove cached facts current (FactCache);
  // on PostgreSQL an id of autovacuum's does not end those proofs.
  const facts = new FactCache(env.VIGIL_FACT_CACHE_ENTRIES, true, database.driver === 'postgres' ? autovacuumIds(database.db) : undefined);
  // Key usage, written every VIGIL_KEY_USAGE_FLUSH_SECONDS, changes no cached fact: it must not end those proofs.
  const keys = new KeyStore(database, { defaultOverlapHours: env.VIGIL_KEY_ROTATION_OVERLAP_HOURS, usageWrites: facts });
  const metrics = new Metrics();
  const logger = options.logger ?? { level: env.VIGIL_LOG_LEVEL };
  const stages = await createStages(config, database);
  const feed = new EventFeed({
    database,
    maxSubscriptions: env.VIGIL_LIVE_MAX_SUBSCRIPTIONS,
    maxPerAccount: env.VIGIL_LIVE_MAX_SUBSCRIPTIONS_PER_ACCOUNT,
    maxQueue: env.VIGIL_LIVE_MAX_QUEUE,
    announceEveryMs: env.VIGIL_LIVE_ANNOUNCE_MS,
    quiet: facts,
  });
  metrics.watchFactCache(facts);
  const pools = database.pools?.bind(database);
  if (pools) metrics.watchPools(pools);
  const flushes = database.flushes?.bind(database);
  if (flushes) metrics.watchFlushes(flushes);
  const checkpoints = database.checkpoints?.bind(database);
  if (checkpoints) metrics.watchCheckpoints(checkpoints);
  database.observeThreadGcs?.(metrics.databaseThreadGc);
  const webhooks = createWebhooks({ database, env, log: { warn: (obj, msg) => app.log.warn(obj, msg) } });
  const browser = await createBrowserSupport(env, database);
  const ingestor = new Ingestor({
    database,
    handprintSecret: browser.secrets.salt,
    legacyHandprints: await LegacyHandprintLinks.open(database.db),
    risk: { tagWeights: config.tagWeights, stages, rules: config.scoreRules },
    maxBatch: env.VIGIL_COMMIT_BATCH_MAX,
    lingerMs: env.VIGIL_COMMIT_LINGER_MS,
    // Metrics count what was stored; the live feed announces it to subscribers.
    observer: {
      stored: (outcome) => (metrics.stored(outcome), feed.stored(outcome)),
      batchFailed: () => metrics.batchFailed(),
      committed: (size, ms) => metrics.committed(size, ms),
    },
    cache: facts,
    // Subscriptions are matched in memory; a batch writes webhook messages only when one matches.
    outbox: webhooks.cache.outboxWrite,
  });
  const rateLimiter =
    env.VIGIL_RATE_LIMIT_RPS === 0 ? noopRateLimiter : new MemoryRateLimiter({ ratePerSecond: env.VIGIL_RATE_LIMIT_RPS, burst: env.VIGIL_RATE_LIMIT_BURST });
  const services = { config, database, keys, ingestor, rateLimiter, metrics, logger, browser, feed, webhooks };
  const app = await buildApp(services, async (app) => {
    operationRoutes(app, services);
    eventRoutes(app, { ...services, log: app.log });
    const registry = registryServices(services);
    deviceRoutes(app, registry);
    supervisorDeviceRoutes(app, registry);
    eventExportRoutes(app, registry);
    authRoutes(app, registry);
    await graphqlRoutes(app, registry, feed);
    jsRoutes(app, { ...services, env: config.env, log: app.log });
  });
  await feed.start(app.log);
  await keys.start(
    (error) => app.log.warn({ err: error }, 'key revocation channel lost; key cache disabled until it reconnects'),
    () => app.log.info('key revocation channel restored; key cache enabled'),
  );
  for (const stage of stages) stage.start?.(app.log);
  await webhooks.start();
  const retention = new RetentionJob({
    db: database.db,
    retentionDays: env.VIGIL_RETENTION_DAYS,
    webhookRetentionDays: env.VIGIL_WEBHOOK_RETENTION_DAYS,
    startDelayMs: env.VIGIL_RETENTION_START_DELAY_SECONDS * 1000,
    log: app.log,
  });
  retention.start();
  const stopFactChanges = await dropOnChange(database, facts, app.log);
  // Expiries are recorded and announced (`key.expired`) with the usage flush.
  const tokenStore = new SupervisorStore(database);
  const usageTimer = setInterval(() => {
    keys.flushUsage().catch((error) => app.log.warn({ err: error }, 'could not record key usage'));
    sweepExpiries({ database, keys, supervisors: tokenStore }).catch((error) => app.log.warn({ err: error }, 'could not record key and token expiries'));
  }, env.VIGIL_KEY_USAGE_FLUSH_SECONDS * 1000);
  usageTimer.unref();

  let closed: Promise<void> | undefined;
  return {
    app,
    database,
    keys,
    ingestor,
    feed,
    facts,
    retention,
    webhooks,
    close() {
      closed ??= (async () => {
        clearInterval(usageTimer);
        await retention.close();
        await app.close();
        await ingestor.drain();
        await feed.stop();
        await webhooks.stop();
        await Promise.all(stages.map((stage) => stage.close?.()));
        await stopFactChanges();
        // Losing last-used times is acceptable at shutdown; failing to close the database is not.
        await keys.stop().catch((error) => app.log.warn({ err: error }, 'could not record key usage at shutdown'));
        if (!options.database) await database.close();
      })();
      return closed;
    },
  };
}
