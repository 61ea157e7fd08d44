import { sql } from 'drizzle-orm';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { rows } from '../db/rows.js';

/**
 * How many events are stored under each idempotency key that starts with `prefix`, in the database `env` names (on
 * PGlite, once its server has stopped: one process per data directory). The fault tests check against it that every
 * event they saw answered was stored, and once.
 */
export async function storedByKey(env: Record<string, string>, prefix: string): Promise<Map<string, number>> {
  const database = await openDatabase(loadConfig(env).env, { migrate: false, purpose: 'stored events check' });
  try {
    const counted = await rows<{ k: string; n: number }>(
      database.db,
      sql`SELECT idempotency_key AS k, count(*)::int AS n FROM events WHERE idempotency_key LIKE ${`${prefix}%`} GROUP BY 1`,
    );
    return new Map(counted.map((r) => [r.k, r.n]));
  } finally {
    await database.close();
  }
}
