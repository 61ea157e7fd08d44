import { and, eq } from 'drizzle-orm';
import { webhookSubscriptions } from '@vigil/drizzle/schema';
import type { DatabaseHandle } from '../db/handle.js';
import type { Sql } from '../db/statement.js';
import type { Insights } from '../pipeline/insights.js';
import { ingestOutboxWrite, type IngestedEvent, type IngestSubscription } from './ingest-outbox.js';
import { WEBHOOKS_CHANNEL } from './outbox.js';

/** Reloads also on a timer, so a change announced while the channel was down is picked up within this. */
const RELOAD_MS = 60_000;

type Log = { warn(obj: object, msg: string): void };

/**
 * The enabled subscriptions ingestion matches against, kept in memory: a group commit never reads them. Reloaded
 * when any process announces a change (a trigger notifies `vigil_webhooks` on PostgreSQL; PGlite is one process and
 * the same channel works within it), when the channel is restored, and every minute. A subscription created in
 * another process applies to events stored after this process hears of it: normally within milliseconds.
 */
export class SubscriptionCache {
  private current: IngestSubscription[] = [];
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly database: DatabaseHandle) {}

  get subscriptions(): readonly IngestSubscription[] {
    return this.current;
  }

  async reload(): Promise<void> {
    const rows = await this.database.db
      .select()
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.enabled, true)));
    this.current = rows
      .map((r) => ({
        id: r.id,
        tagAdded: r.eventTypes.includes('device.tag_added'),
        tags: r.tags,
        scoreThreshold: r.eventTypes.includes('device.score_exceeded') ? (r.scoreThreshold ?? null) : null,
      }))
      .filter((s) => s.tagAdded || s.scoreThreshold !== null);
  }

  /** Ingestion's outbox write for a batch (see ingest-outbox.ts); null when nothing can match. */
  readonly outboxWrite = (batch: readonly IngestedEvent[], insights: readonly Insights[], claimed: Sql | null): Sql | null =>
    ingestOutboxWrite(this.current, batch, insights, claimed);

  async start(log: Log): Promise<void> {
    const reload = () => this.reload().catch((error) => log.warn({ err: error }, 'webhooks: could not reload subscriptions'));
    await this.reload();
    try {
      this.unlisten = await this.database.listen(
        WEBHOOKS_CHANNEL,
        (payload) => payload === 'subscriptions' && void reload(),
        (error) => log.warn({ err: error }, 'webhooks: change channel lost; reloading subscriptions every minute'),
        () => void reload(),
      );
    } catch (error) {
      log.warn({ err: error }, 'webhooks: cannot listen for subscription changes; reloading every minute');
    }
    this.timer = setInterval(() => void reload(), RELOAD_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unlisten?.();
  }
}
