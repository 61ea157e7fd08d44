import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { firstIdAt } from '../ids.js';

export interface PrunedLog {
  messages: number;
  attempts: number;
}

/**
 * Deletes up to `limit` settled messages (delivered, dead, cancelled) created before `cutoff`, with their delivery
 * log. Message ids sort by creation time, so the primary key finds them without an index of its own; a message
 * still pending is kept whatever its age. The caller repeats it until fewer than `limit` go, one short transaction
 * each, so a month of webhooks never holds one long lock.
 */
export async function pruneWebhookLog(tx: Queryable, cutoff: number, limit: number): Promise<PrunedLog> {
  const [row] = await rows<PrunedLog>(
    tx,
    sql`WITH gone AS (
          DELETE FROM webhook_messages WHERE id IN (
            SELECT id FROM webhook_messages WHERE id < ${firstIdAt('msg', cutoff)} AND status <> 'pending' ORDER BY id LIMIT ${limit})
          RETURNING id),
        log AS (DELETE FROM webhook_attempts a USING gone g WHERE a.message_id = g.id RETURNING 1)
        SELECT (SELECT count(*) FROM gone)::int AS messages, (SELECT count(*) FROM log)::int AS attempts`,
  );
  return { messages: Number(row?.messages ?? 0), attempts: Number(row?.attempts ?? 0) };
}
