import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from '@vigil/drizzle/schema';
import type { DatabaseHealth } from './health.js';
import type { CheckpointCounts } from './pglite-checkpointer.js';
import type { FlushCounts, ThreadGcObserver } from './pglite-thread.js';
import type { ReplicaState } from './replica.js';
import type { PoolStats } from './session-pool.js';

export type Schema = typeof schema;
/** Either driver's drizzle database: node-postgres and PGlite share the pg dialect and this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle. PGlite has one connection, so code inside a transaction must use this, never `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a query may run on: the database or a transaction. */
export type Queryable = Db | Tx;

export type Driver = 'postgres' | 'pglite';

/** The database behind a small interface, so the rest of the server never asks which driver it has. */
export interface DatabaseHandle {
  readonly driver: Driver;
  readonly db: Db;
  /**
   * Where GraphQL and /api reads run, so they cannot take ingestion's connections: on PostgreSQL a separate, smaller
   * pool whose statements time out; on PGlite the one connection, one reporting statement queued at a time.
   */
  readonly reporting: Db;
  /** How many group commits may run at once. */
  readonly maxConcurrency: number;
  /** How long the newest group commit in flight runs before another may start beside it (GroupCommitOptions). */
  readonly commitOverlapMs: number;
  /** Whether the database answers; fed by every dependency fault seen, recovered by its own probe. */
  readonly health: DatabaseHealth;
  /** The streaming replica `reporting` reads from (DATABASE_REPLICA_URL), when there is one. */
  readonly replica?: { readonly state: ReplicaState };
  /** PostgreSQL's connection pools, for /metrics (PGlite has one connection and no pool). */
  pools?(): { ingest: PoolStats; reporting: PoolStats };
  /** The embedded database's flushes to the disk since it opened, for /metrics; all 0 unsynced. */
  flushes?(): FlushCounts;
  /** The embedded database's checkpoints since it opened, by cause, and their seconds (pglite-checkpointer.ts). */
  checkpoints?(): CheckpointCounts;
  /**
   * Hear of every garbage collection of the embedded database's thread (its heap is its own, and every statement waits
   * while it collects), for /metrics; one observer, the last given.
   */
  observeThreadGcs?(observe: ThreadGcObserver): void;
  /**
   * Subscribe to a notification channel (PostgreSQL LISTEN/NOTIFY, across processes). A lost subscription is
   * re-established by itself: `onLost` when it drops (notifications may be missed from then on), `onRestored`
   * when it listens again.
   */
  listen(channel: string, onMessage: (payload: string) => void, onLost: (error: Error) => void, onRestored?: () => void): Promise<() => Promise<void>>;
  /** Throws when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
