import { and, eq, inArray, sql } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import type { Tx } from '../db/handle.js';
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
    const inserted = await tx
      .insert(events)
      .values(
        pending.map((p, j) => ({
          id: p.eventId,
          keyId: p.keyId,
          idempotencyKey: p.event.idempotencyKey,
          name: p.event.name,
          identity: p.event.identity,
          deviceId: p.event.deviceId,
          handprintId: p.handprintId,
          sessionId: p.event.sessionId,
          ip: p.event.ip,
          userAgent: p.event.userAgent,
          properties: p.event.properties,
          tags: insights[j]!.current_tags,
          riskScore: insights[j]!.risk_score,
          response: insights[j]!,
          occurredAt: p.event.occurredAt,
          receivedAt: p.event.receivedAt,
        })),
      )
      .onConflictDoNothing({ target: [events.keyId, events.idempotencyKey] })
      .returning({ id: events.id });
    const stored = new Set(inserted.map((r) => r.id));
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
