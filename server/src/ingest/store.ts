import { and, eq, inArray, sql } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import type { Tx } from '../db/handle.js';
import { column, rows } from '../db/rows.js';
import { newId } from '../ids.js';
import { evaluateBatch, type RiskOptions } from '../risk/evaluate.js';
import type { Insights } from './insights.js';
import type { NormalizedEvent } from './normalize.js';
import { recordSightings } from './sightings.js';

export interface PendingEvent {
  keyId: string;
  event: NormalizedEvent;
  handprintId: string;
}

/** `replayed`: an earlier event with the same idempotency key answered; nothing new was stored or counted. */
export interface StoredOutcome {
  insights: Insights;
  replayed: boolean;
}

// Key ids never contain a space, so "keyId key" is unambiguous (and free of NUL, which PostgreSQL text refuses).
const idemKey = (keyId: string, key: string) => `${keyId} ${key}`;
const splitIdemKey = (k: string): [string, string] => {
  const at = k.indexOf(' ');
  return [k.slice(0, at), k.slice(at + 1)];
};

/**
 * Stores a batch of events in one transaction and returns each one's insights, in order.
 * Idempotency keys are locked first (transaction-scoped advisory locks, in sorted order) so that two group
 * commits carrying the same key — in this process or another — serialise, and the second sees the first's
 * stored answer instead of counting the event again.
 */
export async function storeBatch(tx: Tx, batch: PendingEvent[], risk: RiskOptions): Promise<StoredOutcome[]> {
  const outcomes: (StoredOutcome | undefined)[] = new Array(batch.length);
  const keyed = new Map<string, number[]>();
  batch.forEach((p, i) => {
    if (p.event.idempotencyKey === null) return;
    const k = idemKey(p.keyId, p.event.idempotencyKey);
    keyed.set(k, [...(keyed.get(k) ?? []), i]);
  });

  if (keyed.size > 0) {
    const sorted = [...keyed.keys()].sort();
    const keys = sql.join(sorted.map((k) => sql`${k}`), sql`, `);
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 7) AS h FROM unnest(ARRAY[${keys}]::text[]) AS k ORDER BY 1) AS locks`,
    );
    const existing = await findStored(tx, [...keyed.keys()].map(splitIdemKey));
    for (const [k, response] of existing) {
      for (const i of keyed.get(k) ?? []) outcomes[i] = { insights: response, replayed: true };
      keyed.delete(k);
    }
  }

  // Within the batch, later copies of an idempotency key share the first copy's answer.
  const fresh: number[] = [];
  const copies = new Map<number, number>();
  for (let i = 0; i < batch.length; i++) {
    if (outcomes[i]) continue;
    const p = batch[i]!;
    const group = p.event.idempotencyKey === null ? undefined : keyed.get(idemKey(p.keyId, p.event.idempotencyKey));
    if (group && group[0] !== i) copies.set(i, group[0]!);
    else fresh.push(i);
  }

  if (fresh.length > 0) {
    const pending = fresh.map((i) => ({ ...batch[i]!, eventId: newId('evt') }));
    const sightings = await recordSightings(tx, pending);
    const insights = await evaluateBatch(tx, pending, sightings, risk);
    const inserted = await insertEvents(tx, pending, insights);
    const stored = new Set(inserted);
    fresh.forEach((i, j) => {
      outcomes[i] = { insights: insights[j]!, replayed: false };
    });
    // The advisory lock makes a conflict here impossible; if one ever happens, answer what is stored.
    const lost = pending.filter((p) => !stored.has(p.eventId));
    if (lost.length > 0) {
      const again = await findStored(tx, lost.map((p) => [p.keyId, p.event.idempotencyKey!]));
      fresh.forEach((i, j) => {
        const p = pending[j]!;
        if (stored.has(p.eventId)) return;
        const response = again.get(idemKey(p.keyId, p.event.idempotencyKey!));
        if (response) outcomes[i] = { insights: response, replayed: true };
      });
    }
  }

  for (const [i, first] of copies) outcomes[i] = { insights: outcomes[first]!.insights, replayed: true };
  return outcomes as StoredOutcome[];
}

async function findStored(tx: Tx, pairs: [string, string][]): Promise<Map<string, Insights>> {
  const found = new Map<string, Insights>();
  const byKey = new Map<string, string[]>();
  for (const [keyId, key] of pairs) byKey.set(keyId, [...(byKey.get(keyId) ?? []), key]);
  for (const [keyId, keys] of byKey) {
    const rows = await tx
      .select({ idempotencyKey: events.idempotencyKey, response: events.response })
      .from(events)
      .where(and(eq(events.keyId, keyId), inArray(events.idempotencyKey, keys)));
    for (const r of rows) found.set(idemKey(keyId, r.idempotencyKey!), r.response as unknown as Insights);
  }
  return found;
}

/** Inserts the batch's events in one statement; returns the ids actually written. */
async function insertEvents(tx: Tx, pending: (PendingEvent & { eventId: string })[], insights: Insights[]): Promise<string[]> {
  const col = <T>(f: (p: PendingEvent & { eventId: string }, i: number) => T) => pending.map(f);
  const written = await rows<{ id: string }>(
    tx,
    sql`INSERT INTO events (id, key_id, idempotency_key, name, identity, device_id, handprint_id, session_id, ip,
          user_agent, properties, tags, risk_score, response, occurred_at, received_at)
        SELECT id, key_id, idempotency_key, name, identity, device_id, handprint_id, session_id, ip, user_agent,
          properties::jsonb, ARRAY(SELECT jsonb_array_elements_text(tags::jsonb)), risk_score, response::jsonb,
          occurred_at::timestamptz, received_at::timestamptz
        FROM unnest(${column(col((p) => p.eventId), 'text')}, ${column(col((p) => p.keyId), 'text')},
          ${column(col((p) => p.event.idempotencyKey), 'text')}, ${column(col((p) => p.event.name), 'text')},
          ${column(col((p) => p.event.identity), 'text')}, ${column(col((p) => p.event.deviceId), 'text')},
          ${column(col((p) => p.handprintId), 'text')}, ${column(col((p) => p.event.sessionId), 'text')},
          ${column(col((p) => p.event.ip), 'text')}, ${column(col((p) => p.event.userAgent), 'text')},
          ${column(col((p) => JSON.stringify(p.event.properties)), 'text')},
          ${column(col((_, i) => JSON.stringify(insights[i]!.current_tags)), 'text')},
          ${column(col((_, i) => insights[i]!.risk_score), 'float8')},
          ${column(col((_, i) => JSON.stringify(insights[i]!)), 'text')},
          ${column(col((p) => p.event.occurredAt.toISOString()), 'text')},
          ${column(col((p) => p.event.receivedAt.toISOString()), 'text')})
          AS t(id, key_id, idempotency_key, name, identity, device_id, handprint_id, session_id, ip, user_agent,
               properties, tags, risk_score, response, occurred_at, received_at)
        ON CONFLICT (key_id, idempotency_key) DO NOTHING
        RETURNING id`,
  );
  return written.map((r) => r.id);
}
