import { sql } from 'drizzle-orm';
import type { Db } from '../db/handle.js';
import { rows } from '../db/rows.js';
import type { LoadedBehavior } from './definitions.js';
import { countEvents } from './engine.js';
import type { EventFacts } from './fields.js';
import type { StageLog } from './log.js';

export interface BackfillOptions {
  db: Db;
  log: StageLog;
  /** Events per transaction. */
  chunkSize?: number;
  /** Least time between two progress lines of one behavior. */
  progressEveryMs?: number;
  /** Stops the work between chunks (the server is closing). */
  stopped: () => boolean;
}

interface EventRow {
  id: string;
  name: string;
  identity: string | null;
  device_id: string | null;
  handprint_id: string;
  ip: string | null;
  session_id: string | null;
  properties: Record<string, unknown> | string;
  at: number;
  received_ms: number;
  received_us: string;
}

const toFacts = (r: EventRow): EventFacts => ({
  name: r.name,
  identity: r.identity,
  deviceId: r.device_id,
  handprintId: r.handprint_id,
  ip: r.ip,
  sessionId: r.session_id,
  properties: typeof r.properties === 'string' ? (JSON.parse(r.properties) as Record<string, unknown>) : r.properties,
  at: Number(r.at),
  receivedAt: Number(r.received_ms),
});

/**
 * Counts, for a new or changed behavior, every event stored before it became active, in chunks of one
 * transaction each. The cursor is saved with each chunk, so a restart resumes where it stopped; the definition's
 * row is locked per chunk (SKIP LOCKED), so with several processes exactly one works on a behavior at a time.
 * Returns true when the behavior is ready.
 */
export async function backfill(behavior: LoadedBehavior, options: BackfillOptions): Promise<boolean> {
  const { db, log } = options;
  const chunkSize = options.chunkSize ?? 2000;
  const id = behavior.compiled.id;
  const name = behavior.compiled.name;
  const wait = behavior.activeFrom - Date.now();
  if (wait > 0) return false; // Not active yet: some process may still be ingesting without it.
  const [{ total }] = (await rows<{ total: number }>(
    db,
    sql`SELECT count(*)::float8 AS total FROM events WHERE received_at < (SELECT created_at FROM behavior_definitions WHERE id = ${id})`,
  )) as [{ total: number }];
  const started = Date.now();
  let lastLog = 0;
  log.info({ behavior: name, id, events: total }, `behavior ${name}: backfill of ${total} stored events started`);
  for (;;) {
    if (options.stopped()) return false;
    const outcome = await db.transaction(async (tx) => {
      const [def] = await rows<{ cursor: string | null; done: number }>(
        tx,
        sql`SELECT backfill_cursor AS cursor, backfill_done::float8 AS done FROM behavior_definitions
            WHERE id = ${id} AND enabled AND status = 'backfilling' FOR UPDATE SKIP LOCKED`,
      );
      if (!def) return { finished: true, done: -1 };
      const [us, lastId] = def.cursor ? (def.cursor.split(' ') as [string, string]) : [null, null];
      const after = us === null ? sql`true` : sql`(received_at, id) > (timestamptz 'epoch' + ${us}::int8 * interval '1 microsecond', ${lastId})`;
      const chunk = await rows<EventRow>(
        tx,
        sql`SELECT id, name, identity, device_id, handprint_id, ip, session_id, properties,
                   (extract(epoch from occurred_at) * 1000)::float8 AS at,
                   (extract(epoch from received_at) * 1000)::float8 AS received_ms,
                   ((extract(epoch from received_at) * 1000000)::int8)::text AS received_us
            FROM events
            WHERE received_at < (SELECT created_at FROM behavior_definitions WHERE id = ${id}) AND ${after}
            ORDER BY received_at, id LIMIT ${chunkSize}`,
      );
      await countEvents(tx, [behavior.compiled], chunk.map(toFacts), false);
      const last = chunk[chunk.length - 1];
      const done = Number(def.done) + chunk.length;
      const finished = chunk.length < chunkSize;
      await tx.execute(
        sql`UPDATE behavior_definitions SET backfill_done = ${done},
              backfill_cursor = ${last ? `${last.received_us} ${last.id}` : def.cursor},
              status = ${finished ? 'ready' : 'backfilling'}
            WHERE id = ${id}`,
      );
      return { finished, done };
    });
    if (outcome.done < 0) return false; // Another process holds it, or it was removed or finished meanwhile.
    const now = Date.now();
    if (outcome.finished) {
      log.info({ behavior: name, id, events: outcome.done, ms: now - started }, `behavior ${name}: backfill done, ${outcome.done} events counted`);
      return true;
    }
    if (now - lastLog >= (options.progressEveryMs ?? 2000)) {
      lastLog = now;
      const pct = total > 0 ? Math.min(100, Math.round((outcome.done / total) * 100)) : 100;
      log.info({ behavior: name, id, done: outcome.done, total, percent: pct }, `behavior ${name}: backfill ${outcome.done}/${total} (${pct}%)`);
    }
  }
}
