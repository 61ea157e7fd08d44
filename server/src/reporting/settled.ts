import type { DatabaseHandle } from '../db/handle.js';
import { REPLICA_SAMPLE_MS } from '../db/replica.js';

/**
 * The instant received-order reads stop at (EventListOptions.receivedBefore): the settle time before now, and on a
 * streaming replica also its lag and one sampling period before that. A replica shows the primary as it was; were
 * the cut counted from now, a lagging replica could show a later event and let a cursor pass an earlier one it has
 * yet to replay.
 */
export function settledBefore(database: Pick<DatabaseHandle, 'replica'>, settleMs: number, now = Date.now()): Date {
  const replica = database.replica?.state;
  const behindMs = replica ? (replica.lagSeconds ?? 0) * 1000 + REPLICA_SAMPLE_MS : 0;
  return new Date(now - settleMs - behindMs);
}
