import { sql } from 'drizzle-orm';
import type { Db } from '../db/handle.js';

/** How many keyed ids a process remembers as already linked before it starts over. */
const REMEMBERED = 50_000;

/**
 * Links server-side handprints stored before ids were keyed with the installation secret to their keyed ids.
 * SQL cannot compute the keyed id (the secret lives in the process), so the link is made the first time an event
 * with the same inputs arrives: a `handprint_aliases` row (old → keyed id), and the keyed handprint inherits the old
 * one's first sighting, so its age carries on. An installation that has no old ids at start pays nothing.
 */
export class LegacyHandprintLinks {
  private readonly linked = new Set<string>();

  private constructor(private readonly db: Db) {}

  /** None when no old-format id is stored: a new installation, or one whose old ids have all aged out. */
  static async open(db: Db): Promise<LegacyHandprintLinks | undefined> {
    // Old ids are `hp_` + 22 characters; keyed and browser ids are `hp_` + 26. A partial index holds only old ids.
    const result = (await db.execute(sql`SELECT 1 AS found FROM handprints WHERE length(handprint_id) = 25 LIMIT 1`)) as unknown as { rows: unknown[] };
    return result.rows.length > 0 ? new LegacyHandprintLinks(db) : undefined;
  }

  /** Links `legacyId` to `handprintId` when the old id was stored; idempotent, and cheap once done in this process. */
  async link(handprintId: string, legacyId: string): Promise<void> {
    if (this.linked.has(handprintId)) return;
    await this.db.execute(sql`WITH old AS (SELECT first_seen, last_seen FROM handprints WHERE handprint_id = ${legacyId}),
      alias AS (INSERT INTO handprint_aliases (legacy_id, handprint_id) SELECT ${legacyId}, ${handprintId} FROM old
        ON CONFLICT (legacy_id) DO NOTHING)
      INSERT INTO handprints (handprint_id, first_seen, last_seen) SELECT ${handprintId}, first_seen, last_seen FROM old
      ON CONFLICT (handprint_id) DO UPDATE SET first_seen = LEAST(handprints.first_seen, excluded.first_seen)`);
    if (this.linked.size >= REMEMBERED) this.linked.clear();
    this.linked.add(handprintId);
  }
}
