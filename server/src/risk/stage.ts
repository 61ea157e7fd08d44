import type { Tx } from '../db/handle.js';
import type { DeviceInfo, Insights, Warning } from '../ingest/insights.js';
import type { NormalizedEvent } from '../ingest/normalize.js';
import type { DeviceSighting } from '../ingest/sightings.js';

/** One event as the insight stages see it, after its device and handprint sightings were recorded. */
export interface EvaluationItem {
  eventId: string;
  keyId: string;
  event: NormalizedEvent;
  handprintId: string;
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

/**
 * A source of insight (registry state, behaviors, network intelligence, device integrity, …). Stages run inside
 * the group-commit transaction, once per batch, so they can read and write with the batch's own handle and see
 * each other's effects consistently. A stage must use `tx`, never the top-level database (PGlite has one
 * connection). Replayed events never reach a stage, so a stage may count what it sees.
 */
export interface InsightStage {
  readonly name: string;
  run(tx: Tx, batch: readonly EvaluationItem[], earlier: readonly StageOutput[][]): Promise<StageOutput[]>;
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
