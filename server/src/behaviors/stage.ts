import type { DatabaseHandle } from '../db/handle.js';
import { listenOrRetry } from '../db/listen.js';
import { sql, type Sql } from '../db/statement.js';
import type { Warning } from '../pipeline/insights.js';
import type { EvaluationItem, InsightStage, StageContext, StageResult } from '../pipeline/stage.js';
import { backfill } from './backfill.js';
import type { BehaviorConfig } from './config.js';
import { BEHAVIORS_CHANNEL, BehaviorDefinitions, type LoadedBehavior } from './definitions.js';
import type { CompiledBehavior } from './definition.js';
import { countEvents } from './engine.js';
import type { EventFacts } from './fields.js';
import { silentLog, type StageLog } from './log.js';

/** How often definitions are re-read while one is backfilling or not yet active (NOTIFY covers the rest). */
const POLL_MS = 1000;

export const factsOf = (item: EvaluationItem): EventFacts => ({
  name: item.event.name,
  identity: item.event.identity,
  deviceId: item.event.deviceId,
  handprintId: item.handprintId,
  ip: item.event.ip,
  sessionId: item.event.sessionId,
  properties: item.event.properties,
  at: item.event.occurredAt.getTime(),
  receivedAt: item.event.receivedAt.getTime(),
});

/** Live counting: an event received before a behavior became active is the backfill's to count. */
function live(b: LoadedBehavior): CompiledBehavior {
  return { ...b.compiled, matches: (f) => f.receivedAt >= b.activeFrom && b.compiled.matches(f) };
}

/**
 * The behaviors insight stage: counts each event for every enabled behavior and answers their values. It also
 * runs the background work behaviors need: backfills, reloading definitions when another process changes
 * them (LISTEN/NOTIFY), and removing the data of disabled definitions.
 */
export class BehaviorsStage implements InsightStage {
  readonly name = 'behaviors';
  private loaded: LoadedBehavior[] = [];
  private compiled: CompiledBehavior[] = [];
  private log: StageLog = silentLog;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private work: Promise<void> = Promise.resolve();
  private again = false;
  private running = false;
  private started = false;
  private lostBeforeStart: Error | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    readonly definitions: BehaviorDefinitions,
  ) {}

  /** Writes the config's behaviors to the database and loads every enabled one. */
  async init(configs: readonly BehaviorConfig[]): Promise<void> {
    await this.definitions.syncConfig(configs);
    this.use(await this.definitions.loadEnabled());
    // Subscribed here, while start-up is awaited, so no subscription is still in flight if the database closes.
    // A channel that cannot be made at start is retried as a lost one, and the behaviors reloaded once it listens.
    this.unlisten = await listenOrRetry(
      this.database.listen.bind(this.database),
      BEHAVIORS_CHANNEL,
      () => this.kick(),
      (error) => this.warnLost(error),
      // Changes notified while the channel was down were missed: reload.
      () => {
        this.lostBeforeStart = undefined;
        if (this.started) this.log.info({}, 'behaviors: notification channel listening again');
        this.kick();
      },
    );
  }

  get behaviors(): readonly LoadedBehavior[] {
    return this.loaded;
  }

  private use(loaded: LoadedBehavior[]): void {
    this.loaded = loaded;
    this.compiled = loaded.map(live);
  }

  /** Counting reads and writes under per-group locks, so a batch with behaviors runs in a transaction. */
  transactional(): boolean {
    return this.loaded.length > 0;
  }

  /**
   * While behaviors are backfilling, the batch's read asks the database which still are. A backfill may have
   * committed before this process learned so (its acknowledgement still on the way, or another process did it):
   * a caller who has seen the behavior READY must not be warned on its next event.
   */
  read(): Sql | null {
    const pending = this.loaded.filter((b) => b.status !== 'ready').map((b) => b.compiled.id);
    if (pending.length === 0) return null;
    return sql`(SELECT coalesce(json_agg(json_build_array(id, backfill_done::float8)), '[]'::json) FROM behavior_definitions
      WHERE id IN (SELECT json_array_elements_text(${JSON.stringify(pending)}::json)) AND status <> 'ready')`;
  }

  async evaluate(batch: readonly EvaluationItem[], { db, inTransaction, facts }: StageContext): Promise<StageResult> {
    const loaded = this.loaded;
    // Loaded after this batch began without a transaction: counting starts with the next batch, as it does for
    // any event this process answered before it loaded the behavior.
    if (loaded.length === 0 || !inTransaction) return { outputs: batch.map(() => ({})) };
    const values = await countEvents(db, this.compiled, batch.map(factsOf), true);
    // Without a read (none was pending when the batch began), what this process last loaded.
    const stored = facts === null ? null : new Map(facts as [string, number][]);
    const pending = loaded
      .filter((b) => b.status !== 'ready' && (stored === null || stored.has(b.compiled.id)))
      .map((b) => ({ name: b.compiled.name, done: stored?.get(b.compiled.id) ?? b.backfillDone }));
    const outputs = values.map((behaviors) => {
      const warnings: Warning[] = pending
        .filter((b) => behaviors[b.name])
        .map((b) => ({
          code: 'behavior_backfilling',
          message: `behavior ${b.name} is still counting stored events (${b.done} so far); its value may be low`,
        }));
      return warnings.length > 0 ? { behaviors, warnings } : { behaviors };
    });
    return { outputs };
  }

  start(log: StageLog): void {
    this.log = log;
    this.started = true;
    // A channel lost before the app's log was given (its first subscription refused at init) is told now.
    if (this.lostBeforeStart) this.warnLost(this.lostBeforeStart);
    this.lostBeforeStart = undefined;
    this.kick();
  }

  private warnLost(error: Error): void {
    if (!this.started) this.lostBeforeStart = error;
    else this.log.warn({ err: error }, 'behaviors: notification channel lost; reconnecting');
  }

  /** Reloads definitions, purges disabled ones and backfills pending ones; coalesces overlapping requests. */
  private kick(): void {
    // Background work waits for start(), so its progress reaches the app's log.
    if (this.closed || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.work = (async () => {
      try {
        do {
          this.again = false;
          this.use(await this.definitions.loadEnabled());
          await this.definitions.purgeDisabled();
          for (const b of this.loaded.filter((l) => l.status !== 'ready')) {
            if (this.closed) return;
            await backfill(b, { db: this.database.db, log: this.log, stopped: () => this.closed });
          }
          this.use(await this.definitions.loadEnabled());
        } while (this.again && !this.closed);
      } catch (error) {
        if (!this.closed) this.log.error({ err: error }, 'behaviors: background work failed; retrying');
      } finally {
        this.running = false;
        if (!this.closed && this.loaded.some((b) => b.status !== 'ready')) {
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.kick(), POLL_MS);
          this.timer.unref();
        }
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.work;
    // The database may already be gone (a failure, or a test closing it); there is nothing left to unsubscribe.
    await this.unlisten?.().catch(() => {});
  }
}

/** Creates the behaviors stage for createStages: syncs the config's definitions, loads them. */
export async function createBehaviorsStage(configs: readonly BehaviorConfig[], database: DatabaseHandle): Promise<BehaviorsStage> {
  const stage = new BehaviorsStage(database, new BehaviorDefinitions(database.db));
  await stage.init(configs);
  return stage;
}
