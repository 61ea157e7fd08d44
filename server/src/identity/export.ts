import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { column, rows } from '../db/rows.js';
import type { IdentityValues } from './values.js';

/** Events read per statement while exporting: the export streams, whatever the identity holds. */
export const EXPORT_BATCH = 1000;

/** Everything held about an identity but its events, which are read in batches by `exportEvents`. */
export interface IdentityRecord {
  identity: string;
  exported_at: string;
  /** Devices the identity's events came from or that are registered to it. */
  devices: unknown[];
  registrations: unknown[];
  /** Registry changes that moved a device to or from the identity. */
  registry_history: unknown[];
  /** Devices the identity was seen on, with first and last sighting. */
  device_identities: unknown[];
  contact_sightings: {
    emails: unknown[];
    phones: unknown[];
    /** Client IP addresses of the identity's events: how many, first and last. */
    ips: unknown[];
  };
  /** Velocity counters grouped by the identity or one of its contact values: totals per behavior. */
  behavior_counters: unknown[];
}

const json = <T>(db: Queryable, query: ReturnType<typeof sql>) => rows<{ v: T[] | null }>(db, query).then((r) => r[0]?.v ?? []);

export async function identityRecord(db: Queryable, values: IdentityValues): Promise<IdentityRecord> {
  const { identity } = values;
  const emails = column(
    values.emails.map((e) => e.toLowerCase()),
    'text',
  );
  const phones = column(values.phones, 'text');
  const keys = column([identity, ...values.emails, ...values.phones], 'text');
  const deviceIds = sql`(SELECT DISTINCT device_id FROM events WHERE identity = ${identity} AND device_id IS NOT NULL
                         UNION SELECT device_id FROM registrations WHERE user_id = ${identity}
                         UNION SELECT device_id FROM device_identities WHERE identity = ${identity})`;
  return {
    identity,
    exported_at: new Date().toISOString(),
    devices: await json(db, sql`SELECT json_agg(d ORDER BY d.device_id) AS v FROM devices d WHERE d.device_id IN ${deviceIds}`),
    registrations: await json(db, sql`SELECT json_agg(r ORDER BY r.device_id) AS v FROM registrations r WHERE r.user_id = ${identity}`),
    registry_history: await json(
      db,
      sql`SELECT json_agg(a ORDER BY a.at, a.id) AS v FROM registry_audit a WHERE a.from_user = ${identity} OR a.to_user = ${identity}`,
    ),
    device_identities: await json(db, sql`SELECT json_agg(i ORDER BY i.device_id) AS v FROM device_identities i WHERE i.identity = ${identity}`),
    contact_sightings: {
      emails: await json(
        db,
        sql`SELECT json_agg(json_build_object('value', s.value, 'first_seen', s.first_seen,
                   'linked', (SELECT json_agg(l.linked ORDER BY l.linked) FROM intel_links l WHERE l.kind = s.kind AND l.value = s.value)) ORDER BY s.value) AS v
            FROM intel_sightings s WHERE s.kind = 'email' AND lower(s.value) = ANY(${emails})`,
      ),
      phones: await json(
        db,
        sql`SELECT json_agg(json_build_object('value', s.value, 'first_seen', s.first_seen,
                   'linked', (SELECT json_agg(l.linked ORDER BY l.linked) FROM intel_links l WHERE l.kind = s.kind AND l.value = s.value)) ORDER BY s.value) AS v
            FROM intel_sightings s WHERE s.kind = 'phone' AND s.value = ANY(${phones})`,
      ),
      ips: await json(
        db,
        sql`SELECT json_agg(x ORDER BY x.first_seen) AS v FROM (
              SELECT ip, count(*)::int AS events, min(occurred_at) AS first_seen, max(occurred_at) AS last_seen
              FROM events WHERE identity = ${identity} AND ip IS NOT NULL GROUP BY ip) x`,
      ),
    },
    behavior_counters: await json(
      db,
      sql`SELECT json_agg(x ORDER BY x.behavior, x.group_key) AS v FROM (
            SELECT d.name AS behavior, b.group_key, count(*)::int AS buckets, sum(b.count)::float8 AS count, sum(b.sum)::float8 AS sum,
                   min(b.first_at) AS first_at, max(b.last_at) AS last_at
            FROM behavior_buckets b JOIN behavior_definitions d ON d.id = b.behavior_id
            WHERE b.group_key = ANY(${keys}) GROUP BY d.name, b.group_key) x`,
    ),
  };
}

/** The identity's events, oldest first, EXPORT_BATCH at a time (keyset on its index, so memory stays one batch). */
export async function* exportEvents(db: Queryable, identity: string, batchSize = EXPORT_BATCH): AsyncGenerator<Record<string, unknown>[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const batch: { at: string; e: Record<string, unknown> }[] = await rows(
      db,
      sql`SELECT occurred_at::text AS at, row_to_json(e) AS e FROM events e
          WHERE e.identity = ${identity} ${after ? sql`AND (e.occurred_at, e.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
          ORDER BY e.occurred_at, e.id LIMIT ${batchSize}`,
    );
    if (batch.length === 0) return;
    yield batch.map((b) => b.e);
    const last = batch.at(-1)!;
    after = { at: last.at, id: last.e.id as string };
    if (batch.length < batchSize) return;
  }
}
