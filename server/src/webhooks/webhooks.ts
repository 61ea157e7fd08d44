import type { DatabaseHandle } from '../db/handle.js';
import { WebhookDelivery } from './delivery.js';
import { WebhookSender } from './sender.js';
import { SubscriptionCache } from './subscription-cache.js';
import { WebhookSubscriptions } from './subscriptions.js';

/** A claimed message is due again this long after its attempt's timeout, should its process die mid-delivery. */
const LEASE_MARGIN_MS = 30_000;

type Log = { warn(obj: object, msg: string): void };

/** The webhook parts of one process: the subscriptions ingestion matches, their management, and delivery. */
export interface Webhooks {
  cache: SubscriptionCache;
  subscriptions: WebhookSubscriptions;
  delivery: WebhookDelivery;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The VIGIL_WEBHOOK_* settings (config/env.ts validates and documents them). */
export interface WebhookSettings {
  VIGIL_WEBHOOK_ALLOW_PRIVATE: boolean;
  VIGIL_WEBHOOK_TIMEOUT_SECONDS: number;
  VIGIL_WEBHOOK_MAX_ATTEMPTS: number;
  VIGIL_WEBHOOK_RETRY_BASE_MS: number;
  VIGIL_WEBHOOK_RETRY_MAX_MS: number;
  VIGIL_WEBHOOK_WORKERS: number;
  VIGIL_WEBHOOK_POLL_MS: number;
}

export function createWebhooks(options: { database: DatabaseHandle; env: WebhookSettings; log: Log; deliver?: boolean }): Webhooks {
  const { database, env, log } = options;
  const cache = new SubscriptionCache(database);
  const sender = new WebhookSender({ allowPrivate: env.VIGIL_WEBHOOK_ALLOW_PRIVATE, timeoutMs: env.VIGIL_WEBHOOK_TIMEOUT_SECONDS * 1000 });
  const delivery = new WebhookDelivery({
    database,
    sender,
    maxAttempts: env.VIGIL_WEBHOOK_MAX_ATTEMPTS,
    backoff: { baseMs: env.VIGIL_WEBHOOK_RETRY_BASE_MS, maxMs: env.VIGIL_WEBHOOK_RETRY_MAX_MS },
    concurrency: options.deliver === false ? 0 : env.VIGIL_WEBHOOK_WORKERS,
    pollMs: env.VIGIL_WEBHOOK_POLL_MS,
    leaseMs: env.VIGIL_WEBHOOK_TIMEOUT_SECONDS * 1000 + LEASE_MARGIN_MS,
    log,
  });
  const subscriptions = new WebhookSubscriptions({ database, allowPrivate: env.VIGIL_WEBHOOK_ALLOW_PRIVATE, changed: () => cache.reload() });
  return {
    cache,
    subscriptions,
    delivery,
    async start() {
      await cache.start(log);
      await delivery.start();
    },
    async stop() {
      await delivery.stop();
      await cache.stop();
      await sender.close();
    },
  };
}
