import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/handle.js';
import { column, rows } from '../../db/rows.js';

export interface Sighting {
  kind: 'email' | 'phone';
  value: string;
  at: Date;
  /** Device (for e-mails) or identity (for phones) seen with it. */
  linked: string | null;
}

export interface SightingFacts {
  firstSeen: string;
  linkedCount: number;
}

const keyOf = (kind: string, value: string) => `${kind} ${value}`;

/**
 * Records when each e-mail/phone was first seen (earliest event time) and what was seen with it, and returns
 * both as they stand after this batch. Keys are written in sorted order so concurrent batches cannot deadlock.
 */
export async function recordContactSightings(tx: Tx, sightings: Sighting[]): Promise<Map<string, SightingFacts>> {
  const result = new Map<string, SightingFacts>();
  if (sightings.length === 0) return result;
  const first = new Map<string, Sighting>();
  for (const s of sightings) {
    const k = keyOf(s.kind, s.value);
    const seen = first.get(k);
    if (!seen || s.at < seen.at) first.set(k, s);
  }
  const sorted = [...first.values()].sort((a, b) => (keyOf(a.kind, a.value) < keyOf(b.kind, b.value) ? -1 : 1));
  const seen = await rows<{ kind: string; value: string; first_seen: string }>(
    tx,
    sql`INSERT INTO intel_sightings (kind, value, first_seen)
        SELECT * FROM unnest(${column(sorted.map((s) => s.kind), 'text')}, ${column(sorted.map((s) => s.value), 'text')},
                             ${column(sorted.map((s) => s.at.toISOString()), 'timestamptz')})
        ON CONFLICT (kind, value) DO UPDATE SET first_seen = LEAST(intel_sightings.first_seen, excluded.first_seen)
        RETURNING kind, value, to_char(first_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS first_seen`,
  );
  const links = [...new Map(sightings.filter((s) => s.linked !== null).map((s) => [`${keyOf(s.kind, s.value)} ${s.linked}`, s])).values()].sort(
    (a, b) => (`${keyOf(a.kind, a.value)} ${a.linked}` < `${keyOf(b.kind, b.value)} ${b.linked}` ? -1 : 1),
  );
  if (links.length > 0) {
    await tx.execute(
      sql`INSERT INTO intel_links (kind, value, linked)
          SELECT * FROM unnest(${column(links.map((s) => s.kind), 'text')}, ${column(links.map((s) => s.value), 'text')},
                               ${column(links.map((s) => s.linked), 'text')})
          ON CONFLICT DO NOTHING`,
    );
  }
  const counts = await rows<{ kind: string; value: string; n: number }>(
    tx,
    sql`SELECT l.kind, l.value, count(*)::int AS n FROM intel_links l
        JOIN unnest(${column(sorted.map((s) => s.kind), 'text')}, ${column(sorted.map((s) => s.value), 'text')}) AS q(kind, value)
          ON l.kind = q.kind AND l.value = q.value
        GROUP BY l.kind, l.value`,
  );
  const countOf = new Map(counts.map((c) => [keyOf(c.kind, c.value), Number(c.n)]));
  for (const r of seen) result.set(keyOf(r.kind, r.value), { firstSeen: r.first_seen, linkedCount: countOf.get(keyOf(r.kind, r.value)) ?? 0 });
  return result;
}

export { keyOf as sightingKey };
