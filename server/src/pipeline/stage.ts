import type { Sql } from '../db/statement.js';
import type { Queryable } from '../db/handle.js';
import type { DeviceInfo, Insights, Warning } from './insights.js';
import type { NormalizedEvent } from './event.js';
import type { CachedPart, FactCache } from './fact-cache.js';
import type { DeviceSighting } from './sightings.js';

/** One event of a batch before anything was read: what a stage's `read` sees. */
export interface EvaluationInput {
  eventId: string;
  keyId: string;
  event: NormalizedEvent;
  handprintId: string;
}

/** One event as the insight stages see it, with its device's and handprint's sightings. */
export interface EvaluationItem extends EvaluationInput {
  /** First sighting of the event's device (null when the event names no device_id). */
  device: DeviceSighting | null;
  /** Age in whole days and whether younger than 24 h, by device_id or else by handprint. */
  ageDays: number;
  isNew: boolean;
}

/** What a stage adds to one event's insights; everything is optional and merged in stage order. */
export interface StageOutput {
  tags?: string[];
  device?: Partial<DeviceInfo>;
  behaviors?: Insights['behaviors'];
  email_intel?: Insights['email_intel'];
  phone_intel?: Insights['phone_intel'];
  warnings?: Warning[];
}

/** What a stage decided for a batch: one output per event, and the writes those decisions imply. */
export interface StageResult {
  outputs: StageOutput[];
  /**
   * Data-modifying statements, run as CTEs of the batch's one write statement together with the events insert.
   * They must be idempotent facts (insert if missing, LEAST/GREATEST): outside a transaction a concurrent retry
   * of the same event may carry them a second time.
   */
  writes?: Sql[];
  /** Puts the facts as they are once the batch's write commits into the process's cache (see pipeline/fact-cache.ts). */
  remember?(cache: FactCache): void;
}

/** What a stage sees besides the batch: what it read, the earlier stages' outputs, and the batch's handle. */
export interface StageContext {
  /** The value of the stage's `read` expression (parsed json), or null. */
  facts: unknown;
  earlier: readonly StageOutput[][];
  /** The batch's handle: the transaction when the batch runs in one, else the database. Rare follow-ups only. */
  db: Queryable;
  /** Whether the batch runs in a transaction (some stage asked for one when it began). */
  inTransaction: boolean;
}

/**
 * A source of insight (registry state, behaviors, network intelligence, device integrity, …). A batch costs one
 * read statement and one write statement whatever the number of stages: each stage contributes a json-valued
 * expression to the read and CTEs to the write, and decides its outputs in between, in memory. Events answered
 * from storage never reach `evaluate`, but outside a transaction a retry racing its original does (it loses only
 * at the events insert): writes must be idempotent facts, and a stage that counts must ask for a transaction.
 *
 * A stage that must read and write under a lock (behaviors: exact counts across processes) says so with
 * `transactional`; the batch then runs in one transaction and the stage may run its own statements on `db`,
 * which is then the transaction (PGlite has one connection: never the top-level database).
 */
export interface InsightStage {
  readonly name: string;
  /**
   * A parenthesised `SELECT json_…` expression of what the stage needs about the batch, or null. The read covers
   * every event of the batch, also those that turn out to be replays; `evaluate` sees only the new ones.
   */
  read?(batch: readonly EvaluationInput[]): Sql | null;
  /**
   * What `read` would return, from the process's cache, with the check the write statement runs on it; undefined
   * when something is not cached (the part is then read). A stage without it is always read.
   */
  cached?(batch: readonly EvaluationInput[], cache: FactCache): CachedPart | undefined;
  evaluate(batch: readonly EvaluationItem[], context: StageContext): StageResult | Promise<StageResult>;
  /** True when this batch must run in a transaction (see above). */
  transactional?(batch: readonly EvaluationInput[]): boolean;
  /** Background work (list reloads, backfills) starts once the app exists, so it can log. */
  start?(log: StageLog): void;
  /** Stops background work; called before the database closes. */
  close?(): Promise<void>;
}

/** The part of the app's logger that background work uses. */
export interface StageLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
