import { and, eq, inArray, sql } from 'drizzle-orm';
import { behaviorBuckets, behaviorDefinitions, behaviorPoints, behaviorSpans } from '@vigil/drizzle/schema';
import type { Db, Tx } from '../db/handle.js';
import { behaviorConfigSchema, type BehaviorConfig } from './config.js';
import { compileBehavior, type CompiledBehavior } from './definition.js';

/** Notified (LISTEN/NOTIFY) whenever the set of enabled behaviors changes, so every process reloads it. */
export const BEHAVIORS_CHANNEL = 'vigil_behaviors';
const LOCK_CLASS = 0x6268_7672;
const REGISTRY_LOCK = 0;
/**
 * An admin definition starts counting live events this long after it is stored. Every process learns of it
 * within that time (NOTIFY, with polling as a fallback), and the backfill counts everything received before,
 * so no event is missed or counted twice.
 */
export const ADMIN_ACTIVATION_DELAY_MS = 3000;

export type BehaviorStatus = 'backfilling' | 'ready';

export interface LoadedBehavior {
  compiled: CompiledBehavior;
  source: 'config' | 'admin';
  status: BehaviorStatus;
  /** Events received from this instant (epoch ms) are counted live; earlier ones by the backfill. */
  activeFrom: number;
  backfillDone: number;
}

/** What the admin service API shows for a behavior. */
export interface BehaviorSummary {
  id: string;
  name: string;
  source: 'config' | 'admin';
  status: BehaviorStatus;
  backfilled_events: number;
  definition: BehaviorConfig;
}

const summary = (b: LoadedBehavior): BehaviorSummary => ({
  id: b.compiled.id,
  name: b.compiled.name,
  source: b.source,
  status: b.status,
  backfilled_events: b.backfillDone,
  definition: b.compiled.config,
});

async function dropData(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(behaviorPoints).where(inArray(behaviorPoints.behaviorId, ids));
  await tx.delete(behaviorBuckets).where(inArray(behaviorBuckets.behaviorId, ids));
  await tx.delete(behaviorSpans).where(inArray(behaviorSpans.behaviorId, ids));
  await tx.delete(behaviorDefinitions).where(inArray(behaviorDefinitions.id, ids));
}

/**
 * Behavior definitions as stored in the database: the config file's, synchronised at start, and the admins'.
 * All processes share them, so every process counts the same behaviors.
 */
export class BehaviorDefinitions {
  constructor(private readonly db: Db) {}

  private async locked<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int4, ${REGISTRY_LOCK}::int4)`);
      const result = await work(tx);
      await tx.execute(sql`SELECT pg_notify(${BEHAVIORS_CHANNEL}, '')`);
      return result;
    });
  }

  /** Stores one definition under its name, replacing (and discarding the data of) an earlier one with that name. */
  private async put(tx: Tx, config: BehaviorConfig, source: 'config' | 'admin'): Promise<void> {
    const compiled = compileBehavior(config);
    const [current] = await tx.select().from(behaviorDefinitions).where(eq(behaviorDefinitions.id, compiled.id));
    if (current?.enabled) {
      // Same counting definition: only what is shown (description, return_values) may have changed.
      await tx.update(behaviorDefinitions).set({ definition: config, source }).where(eq(behaviorDefinitions.id, compiled.id));
      return;
    }
    // A disabled copy missed events while it was off: start again from stored events.
    if (current) await dropData(tx, [compiled.id]);
    await tx
      .update(behaviorDefinitions)
      .set({ enabled: false })
      .where(and(eq(behaviorDefinitions.name, config.name), eq(behaviorDefinitions.enabled, true)));
    await tx.insert(behaviorDefinitions).values({
      id: compiled.id,
      name: config.name,
      definition: config,
      source,
      enabled: true,
      bucketMs: compiled.bucketMs,
      status: 'backfilling',
      createdAt: source === 'admin' ? sql`now() + ${`${ADMIN_ACTIVATION_DELAY_MS} milliseconds`}::interval` : sql`now()`,
    });
  }

  /**
   * Makes the config file's behaviors the enabled `config` ones: new or changed ones are added (and backfilled),
   * ones no longer in the file are disabled. Admin-defined behaviors are kept unless the file reuses their name.
   */
  async syncConfig(configs: readonly BehaviorConfig[]): Promise<void> {
    await this.locked(async (tx) => {
      for (const config of configs) await this.put(tx, config, 'config');
      const names = configs.map((c) => c.name);
      await tx
        .update(behaviorDefinitions)
        .set({ enabled: false })
        .where(
          and(
            eq(behaviorDefinitions.enabled, true),
            eq(behaviorDefinitions.source, 'config'),
            names.length > 0 ? sql`${behaviorDefinitions.name} <> ALL(${sql.param(names)}::text[])` : sql`true`,
          ),
        );
    });
  }

  /** Admin API: define or redefine a behavior. Throws a ZodError for an invalid definition. */
  async define(input: unknown): Promise<BehaviorSummary> {
    const config = behaviorConfigSchema.parse(input);
    await this.locked((tx) => this.put(tx, config, 'admin'));
    const found = (await this.loadEnabled()).find((b) => b.compiled.name === config.name)!;
    return summary(found);
  }

  /** Admin API: disable a behavior by name; false when there is none. Its data is removed in the background. */
  async remove(name: string): Promise<boolean> {
    return this.locked(async (tx) => {
      const changed = await tx
        .update(behaviorDefinitions)
        .set({ enabled: false })
        .where(and(eq(behaviorDefinitions.name, name), eq(behaviorDefinitions.enabled, true)))
        .returning({ id: behaviorDefinitions.id });
      return changed.length > 0;
    });
  }

  async list(): Promise<BehaviorSummary[]> {
    return (await this.loadEnabled()).map(summary);
  }

  async loadEnabled(): Promise<LoadedBehavior[]> {
    const found = await this.db
      .select({
        definition: behaviorDefinitions.definition,
        source: behaviorDefinitions.source,
        status: behaviorDefinitions.status,
        activeFrom: sql<number>`(extract(epoch from ${behaviorDefinitions.createdAt}) * 1000)::float8`,
        backfillDone: behaviorDefinitions.backfillDone,
      })
      .from(behaviorDefinitions)
      .where(eq(behaviorDefinitions.enabled, true))
      .orderBy(behaviorDefinitions.name);
    return found.map((r) => ({
      compiled: compileBehavior(behaviorConfigSchema.parse(r.definition)),
      source: r.source,
      status: r.status,
      activeFrom: Number(r.activeFrom),
      backfillDone: Number(r.backfillDone),
    }));
  }

  /** Deletes the data of disabled definitions (after a change or a removal). */
  async purgeDisabled(): Promise<number> {
    const disabled = await this.db.select({ id: behaviorDefinitions.id }).from(behaviorDefinitions).where(eq(behaviorDefinitions.enabled, false));
    for (const { id } of disabled) {
      await this.db.transaction(async (tx) => {
        // Re-check under the row lock: the definition may have been re-enabled meanwhile.
        const [row] = await tx
          .execute(sql`SELECT 1 FROM behavior_definitions WHERE id = ${id} AND NOT enabled FOR UPDATE SKIP LOCKED`)
          .then((r) => (r as unknown as { rows: unknown[] }).rows);
        if (row) await dropData(tx, [id]);
      });
    }
    return disabled.length;
  }
}
