import { createHash } from 'node:crypto';
import type { BehaviorConfig } from './config.js';
import { fieldNumber, fieldText, type EventFacts } from './fields.js';
import { compileFilters } from './filters.js';

/** Buckets per window: the edge reads cost about 1/32 of a window's events, the bucket reads about 33 rows. */
export const BUCKETS_PER_WINDOW = 32;

/** A behavior ready to run: its identity in the database, its window and bucket width, and its accessors. */
export interface CompiledBehavior {
  id: string;
  name: string;
  config: BehaviorConfig;
  operation: BehaviorConfig['operation'];
  windowMs: number;
  bucketMs: number;
  returnValues: boolean;
  matches(facts: EventFacts): boolean;
  groupKey(facts: EventFacts): string | null;
  /** The number summed (sum only; null skips the event's contribution). */
  value(facts: EventFacts): number | null;
  /** The value counted once (unique only; null: not counted). */
  item(facts: EventFacts): string | null;
}

/**
 * The id hashes everything that decides what is counted (and the name), so any such change makes a new
 * definition that is backfilled, never a silent reinterpretation of existing aggregates. The description and
 * return_values only change what is shown, so they are left out.
 */
export function behaviorId(config: BehaviorConfig): string {
  const counted = {
    name: config.name,
    group_by: config.group_by,
    operation: config.operation,
    field: config.field ?? null,
    window_duration_seconds: config.window_duration_seconds,
    filters: config.filters,
    buckets: BUCKETS_PER_WINDOW,
  };
  return `bhv_${createHash('sha256').update(JSON.stringify(counted)).digest('base64url').slice(0, 22)}`;
}

export function bucketMsFor(windowMs: number): number {
  return Math.max(1, Math.floor(windowMs / BUCKETS_PER_WINDOW));
}

export function compileBehavior(config: BehaviorConfig): CompiledBehavior {
  const windowMs = config.window_duration_seconds * 1000;
  const field = config.field;
  return {
    id: behaviorId(config),
    name: config.name,
    config,
    operation: config.operation,
    windowMs,
    bucketMs: bucketMsFor(windowMs),
    returnValues: config.return_values,
    matches: compileFilters(config.filters),
    groupKey: (facts) => fieldText(facts, config.group_by),
    value: (facts) => (config.operation === 'sum' && field ? fieldNumber(facts, field) : null),
    item: (facts) => (config.operation === 'unique' && field ? fieldText(facts, field) : null),
  };
}
