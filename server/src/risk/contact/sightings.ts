import { sql, type Sql } from '../../db/statement.js';
import { ms, named, probe, records } from '../../db/compose.js';
import { factKey, MAX_CACHED_LIST, staleWhen, type CachedPart, type FactCache } from '../../pipeline/fact-cache.js';
import { byKey } from '../../pipeline/sightings.js';

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
const linkKey = (kind: string, value: string, linked: string | null) => `${keyOf(kind, value)} ${linked}`;
const linkOf = (s: Sighting) => linkKey(s.kind, s.value, s.linked);

/** Each value's earliest sighting in the batch, and each distinct (value, linked) pair, in key order. */
function distinct(sightings: readonly Sighting[]) {
  const first = new Map<string, Sighting>();
  const links = new Map<string, Sighting>();
  for (const s of sightings) {
    const k = keyOf(s.kind, s.value);
    const seen = first.get(k);
    if (!seen || s.at < seen.at) first.set(k, s);
    if (s.linked !== null) links.set(linkOf(s), s);
  }
  // Sorted by the maps' own keys: a comparator that rebuilt each key string made every comparison allocate.
  return { values: byKey(first).map(([, s]) => s), links: byKey(links).map(([, s]) => s) };
}

/**
 * What is stored about the batch's e-mails and phones, as one part of the batch's read: each value's first
 * sighting and how many devices/identities it was linked to (its row's count, kept by the writes below: one row
 * however many links the value has), and which of the batch's links already exist.
 */
export function readContactSightings(sightings: readonly Sighting[]): Sql | null {
  if (sightings.length === 0) return null;
  const { values, links } = distinct(sightings);
  const valueRows = records(
    values.map((s) => ({ kind: s.kind, value: s.value })),
    'kind text, value text',
    'q',
  );
  const linkRows = records(
    links.map((s) => ({ kind: s.kind, value: s.value, linked: s.linked })),
    'kind text, value text, linked text',
    'q',
  );
  return sql`(SELECT json_build_object(
    'seen', (SELECT json_agg(json_build_array(q.kind, q.value, ${ms('s.first_seen')}, s.links))
             FROM ${valueRows} CROSS JOIN ${probe(sql`SELECT first_seen, links FROM intel_sightings WHERE kind = q.kind AND value = q.value`)} AS s),
    'linked', (SELECT json_agg(json_build_array(q.kind, q.value, q.linked))
               FROM ${linkRows}
               CROSS JOIN ${probe(sql`SELECT 1 FROM intel_links WHERE kind = q.kind AND value = q.value AND linked = q.linked`)} AS l)))`;
}

/** What the cache keeps of one e-mail or phone: first sighting, how many links, and links known to exist. */
interface CachedValue {
  first: number | null;
  n: number;
  /** All of the value's links when `links.length === n`, else some of them. */
  links: string[];
}

/**
 * `readContactSightings` from the cache, or undefined when a value is not cached or a link of the batch may exist
 * without the cache knowing it. Every cached link of a value is served, so the batch's memory keeps them.
 */
export function cachedContactSightings(sightings: readonly Sighting[], cache: FactCache): CachedPart | undefined {
  if (sightings.length === 0) return { facts: null };
  const { values, links } = distinct(sightings);
  const entries = new Map<string, CachedValue>();
  for (const s of values) {
    const entry = cache.get<CachedValue>(factKey.contact(s.kind, s.value));
    if (!entry) return undefined;
    entries.set(keyOf(s.kind, s.value), entry);
  }
  for (const s of links) {
    const entry = entries.get(keyOf(s.kind, s.value))!;
    if (entry.links.length !== entry.n && !entry.links.includes(s.linked!)) return undefined;
  }
  const facts: Stored = { seen: [], linked: [] };
  const checks: { k: string; v: [number | null, number] }[] = [];
  for (const s of values) {
    const entry = entries.get(keyOf(s.kind, s.value))!;
    if (entry.first !== null) facts.seen!.push([s.kind, s.value, entry.first, entry.n]);
    for (const linked of entry.links) facts.linked!.push([s.kind, s.value, linked]);
    checks.push({ k: keyOf(s.kind, s.value), v: [entry.first, entry.n] });
  }
  const where = sql`kind = split_part(q.k, ' ', 1) AND value = substr(q.k, position(' ' in q.k) + 1)`;
  const stale = () =>
    staleWhen(checks, sql`SELECT COALESCE((SELECT jsonb_build_array(${ms('first_seen')}, links) FROM intel_sightings WHERE ${where}), '[null, 0]'::jsonb)`);
  return { facts, stale };
}

interface Stored {
  seen: [kind: string, value: string, firstMs: number, links: number][] | null;
  linked: [kind: string, value: string, linked: string][] | null;
}

/**
 * Each value's facts after this batch (first sighting, linked count) and the writes that record the batch: links
 * not stored yet, and values not stored yet, seen earlier than stored or given new links (their count grows by the
 * links actually added). A value or link another batch wrote since the read is merged by the conflict clauses
 * (LEAST and a sum, or nothing).
 */
export function resolveContactSightings(
  sightings: readonly Sighting[],
  facts: unknown,
): { seen: Map<string, SightingFacts>; writes: Sql[]; remember(cache: FactCache): void } {
  const seen = new Map<string, SightingFacts>();
  if (sightings.length === 0) return { seen, writes: [], remember: () => {} };
  const stored = (facts ?? { seen: null, linked: null }) as Stored;
  const { values, links } = distinct(sightings);
  const storedValues = new Map((stored.seen ?? []).map(([kind, value, firstMs, n]) => [keyOf(kind, value), { firstMs, n: Number(n) }]));
  const storedLinks = new Set((stored.linked ?? []).map(([kind, value, linked]) => linkKey(kind, value, linked)));

  const newLinks = links.filter((s) => !storedLinks.has(linkOf(s)));
  const added = new Map<string, number>();
  for (const s of newLinks) added.set(keyOf(s.kind, s.value), (added.get(keyOf(s.kind, s.value)) ?? 0) + 1);

  // Each value as stored once the write commits, for the cache.
  const after = new Map<string, CachedValue>();
  // Values whose row the write adds or changes: new, seen earlier than stored, or with new links to count.
  const upserts: Sighting[] = [];
  for (const s of values) {
    const k = keyOf(s.kind, s.value);
    const row = storedValues.get(k);
    const firstMs = row && row.firstMs <= s.at.getTime() ? row.firstMs : s.at.getTime();
    if (!row || s.at.getTime() < row.firstMs || added.has(k)) upserts.push(s);
    const linkedCount = (row?.n ?? 0) + (added.get(k) ?? 0);
    seen.set(k, { firstSeen: new Date(firstMs).toISOString(), linkedCount });
    after.set(k, { first: firstMs, n: linkedCount, links: [] });
  }
  for (const [kind, value, linked] of stored.linked ?? []) after.get(keyOf(kind, value))?.links.push(linked);
  for (const s of newLinks) after.get(keyOf(s.kind, s.value))?.links.push(s.linked!);
  const remember = (cache: FactCache) => {
    for (const s of values) {
      const value = after.get(keyOf(s.kind, s.value))!;
      if (value.links.length <= MAX_CACHED_LIST) cache.set(factKey.contact(s.kind, s.value), value);
      else cache.drop(factKey.contact(s.kind, s.value));
    }
  };

  // Links first: the sightings' write counts what it returns. A link another batch added since the read is not
  // returned, so it is counted once, by that batch.
  const writes: Sql[] = [];
  if (newLinks.length > 0) {
    writes.push(
      named(
        'contact_links',
        sql`INSERT INTO intel_links (kind, value, linked)
          SELECT kind, value, linked FROM ${records(
            newLinks.map((s) => ({ kind: s.kind, value: s.value, linked: s.linked })),
            'kind text, value text, linked text',
          )}
          ON CONFLICT DO NOTHING
          RETURNING kind, value`,
      ),
    );
  }
  if (upserts.length > 0) {
    const links = newLinks.length > 0 ? sql`(SELECT count(*) FROM contact_links l WHERE l.kind = v.kind AND l.value = v.value)` : sql`0`;
    writes.push(sql`INSERT INTO intel_sightings (kind, value, first_seen, links)
      SELECT kind, value, at, ${links} FROM ${records(
        upserts.map((s) => ({ kind: s.kind, value: s.value, at: s.at.toISOString() })),
        'kind text, value text, at timestamptz',
        'v',
      )}
      ON CONFLICT (kind, value) DO UPDATE
        SET first_seen = LEAST(intel_sightings.first_seen, excluded.first_seen), links = intel_sightings.links + excluded.links
      WHERE intel_sightings.first_seen > excluded.first_seen OR excluded.links > 0`);
  }
  return { seen, writes, remember };
}

export { keyOf as sightingKey };
