import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import type { IdentifyIds } from './fact-cache.js';

/**
 * PostgreSQL's autovacuum workers among the holders of `ids` (FactCache's `identify`): an ANALYZE takes a transaction
 * id to write its statistics, and changes no fact, but a group commit that sees it under way cannot tell it from
 * another writer's, and every cached entry would be compared with its row again for seconds after each one.
 *
 * `backend_xid` is shown to every role; `backend_type` only to a superuser or `pg_read_all_stats`, so for any other
 * role a worker is a backend without a user (`usesysid`), which only PostgreSQL's own processes are, and of those
 * only autovacuum's take ids. Ids are matched on their low 32 bits (`backend_xid` is an `xid`): two ids under way
 * at once never share them.
 */
export function autovacuumIds(db: Queryable): IdentifyIds {
  return async (ids) => {
    const low = new Map(ids.map((x) => [String(x & 0xffffffffn), x]));
    const found = await rows<{ x: string }>(
      db,
      sql`SELECT backend_xid::text AS x FROM pg_stat_activity
          WHERE backend_xid::text = ANY(${sql.param([...low.keys()])}::text[])
            AND (backend_type = 'autovacuum worker' OR (backend_type IS NULL AND usesysid IS NULL))`,
    );
    return found.flatMap((r) => low.get(r.x) ?? []);
  };
}
