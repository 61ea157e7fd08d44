import { faultKind } from '../db/faults.js';
import type { DatabaseHandle } from '../db/handle.js';
import type { LegacyHandprintLinks } from '../handprint/legacy-links.js';
import { legacyServerHandprint, ServerHandprints, type ServerSignals } from '../handprint/server-signals.js';
import type { RiskOptions } from '../risk/evaluate.js';
import type { FactCache } from '../pipeline/fact-cache.js';
import { GroupCommitter, type ItemFailure } from './group-commit.js';
import type { NormalizedEvent } from '../pipeline/event.js';
import { storeBatch, type BatchOutbox, type PendingEvent, type StoredOutcome } from './store.js';

/** What ingestion reports to metrics; a no-op implementation is fine for the CLI. */
export interface IngestObserver {
  stored(outcome: StoredOutcome): void;
  batchFailed(error: unknown, size: number): void;
  /** A group commit returned: how many events it carried and how long it took. */
  committed(size: number, ms: number): void;
}

export interface IngestorOptions {
  database: DatabaseHandle;
  risk: RiskOptions;
  maxBatch: number;
  /** How long the oldest waiting event may wait for others before its group commit starts (GroupCommitOptions.lingerMs). */
  lingerMs: number;
  observer: IngestObserver;
  /** Hot facts of this process (pipeline/fact-cache.ts); none: every batch reads. */
  cache?: FactCache;
  /** Writes made with each batch (webhooks' outbox); none: only the events and their facts. */
  outbox?: BatchOutbox;
  /** The installation's handprint secret (the browser handprint salt): server-side handprints are keyed with it. */
  handprintSecret: string;
  /** Links to handprints stored before ids were keyed; none when the installation has no such ids. */
  legacyHandprints?: LegacyHandprintLinks | undefined;
}

// Deadlock and serialization failures are the database asking us to try again.
const RETRYABLE = new Set(['40P01', '40001']);

function retryable(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code !== undefined && RETRYABLE.has(code);
}

/** The ingestion path: an event in, durable storage, insights out. */
export class Ingestor {
  private readonly committer: GroupCommitter<PendingEvent, StoredOutcome>;
  private readonly handprints: ServerHandprints;

  constructor(private readonly options: IngestorOptions) {
    this.handprints = new ServerHandprints(options.handprintSecret);
    this.committer = new GroupCommitter({
      maxBatch: options.maxBatch,
      lingerMs: options.lingerMs,
      concurrency: options.database.maxConcurrency,
      overlapAfterMs: options.database.commitOverlapMs,
      commit: (items) => this.commit(items),
      onBatchFailure: (error, size) => options.observer.batchFailed(error, size),
      onCommitted: (size, ms) => options.observer.committed(size, ms),
      isolate: (error) => faultKind(error) === undefined,
    });
  }

  async submit(keyId: string, event: NormalizedEvent): Promise<StoredOutcome> {
    const handprintId = event.handprintId ?? (await this.serverHandprint(event));
    const outcome = await this.committer.submit({ keyId, event, handprintId });
    this.options.observer.stored(outcome);
    return outcome;
  }

  private async serverHandprint(event: NormalizedEvent): Promise<string> {
    const signals: ServerSignals = { userAgent: event.userAgent, acceptLanguage: event.acceptLanguage, ip: event.ip };
    const id = this.handprints.of(signals);
    await this.options.legacyHandprints?.link(id, legacyServerHandprint(signals));
    return id;
  }

  drain(): Promise<void> {
    return this.committer.drain();
  }

  private async commit(items: PendingEvent[]): Promise<(StoredOutcome | ItemFailure)[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await storeBatch(this.options.database.db, items, this.options.risk, this.options.cache, this.options.outbox);
      } catch (error) {
        // A commit meeting a database fault makes /readyz not ready at once, without waiting for its next ping.
        this.options.database.health.observe(error);
        if (attempt >= 3 || !retryable(error)) throw error;
      }
    }
  }
}
