import { join, preparedRows, raw, sql, type Sql } from '../db/statement.js';
import { keys, probe, readAll, records, recordsJson, writeAll } from '../db/compose.js';
import type { Db, Queryable } from '../db/handle.js';
import { VigilError } from '../errors.js';
import { newId } from '../ids.js';
import { evaluateBatch, type RiskOptions } from '../risk/evaluate.js';
import { ItemFailure } from './group-commit.js';
import { isStaleFacts, notNextXid, parseSnapshot, SNAPSHOT, staleFactsXid, type CachedPart, type FactCache } from '../pipeline/fact-cache.js';
import type { Insights } from '../pipeline/insights.js';
import type { NormalizedEvent } from '../pipeline/event.js';
import { cachedSightings, readSightings, resolveSightings } from '../pipeline/sightings.js';

export interface PendingEvent {
  keyId: string;
  event: NormalizedEvent;
  handprintId: string;
}

/**
 * Extra writes for a batch's stored events, made in the batch's own write statement (webhooks' outbox). `claimed`
 * names the CTE that claimed the batch's idempotency keys (its `event_id`s), when there is one. Null: nothing to write.
 */
export type BatchOutbox = (batch: readonly Pending[], insights: readonly Insights[], claimed: Sql | null) => Sql | null;

/** `replayed`: an earlier event with the same idempotency key answered; nothing new was stored or counted. */
export interface StoredOutcome {
  insights: Insights;
  replayed: boolean;
  /** `insights` as the JSON that was stored, when this event stored it: the answer need not serialise it again. */
  json?: string;
}

// Key ids never contain a space, so "keyId key" is unambiguous (and free of NUL, which PostgreSQL text refuses).
const idemKey = (keyId: string, key: string) => `${keyId} ${key}`;
const splitIdemKey = (k: string): [string, string] => {
  const at = k.indexOf(' ');
  return [k.slice(0, at), k.slice(at + 1)];
};

/**
 * Stores a batch of events and returns each one's insights, in order. A batch costs one read statement (stored
 * answers of its idempotency keys, its devices and handprints, every stage's facts) and one write statement (the
 * events and every stage's writes), so the cost per event falls as batches grow.
 *
 * Outside a transaction, a retry racing its original is caught by event_keys' primary key: the loser's insert
 * does nothing and the stored answer is returned; the stages' writes are idempotent facts, so nothing counts
 * twice. A stage that counts under locks (behaviors) makes the batch transactional: idempotency keys are then
 * locked first (advisory locks, sorted) so the second copy sees the first's answer before anything is counted.
 */
export async function storeBatch(
  db: Db,
  batch: PendingEvent[],
  risk: RiskOptions,
  cache?: FactCache,
  outbox?: BatchOutbox,
): Promise<(StoredOutcome | ItemFailure)[]> {
  const pending = batch.map((p) => ({ ...p, eventId: newId('evt') }));
  const leave = cache?.enter();
  try {
    if (risk.stages.some((s) => s.transactional?.(pending))) {
      return await db.transaction((tx) => storeIn(tx, pending, risk, true, undefined, 'read', outbox));
    }
    if (!cache || cache.capacity === 0) return await storeIn(db, pending, risk, false, undefined, 'read', outbox);
    let use: FactUse = 'proof';
    for (;;) {
      const attempt = { proved: false };
      try {
        return await storeIn(db, pending, risk, false, cache, use, outbox, attempt);
      } catch (error) {
        // The write was undone whole. Its proof failed (something else wrote since its facts were proven current):
        // check the same cached facts one by one. Or what the cache served had changed: read everything afresh;
        // its write refills the cache.
        if (!isStaleFacts(error)) {
          // The commit may or may not have happened, or the server may be gone: nothing follows from here.
          cache.lost();
          throw error;
        }
        // Undone, its transaction changed nothing: the next commit still follows the last one across its id.
        cache.apart(staleFactsXid(error));
        if (use === 'read') {
          cache.lost();
          throw error;
        }
        if (attempt.proved) {
          cache.commits.unproven++;
          cache.proofFailed();
        } else cache.commits.stale++;
        use = attempt.proved ? 'check' : 'read';
      }
    }
  } finally {
    leave?.();
  }
}

export type Pending = PendingEvent & { eventId: string };

/**
 * How a batch uses the cache: `proof`, its facts, with no check but of the transaction id when FactCache.serve
 * proves them current; `check`, its facts, each checked against its row in the write; `read`, none (every
 * part is read; the cache is only refilled).
 */
type FactUse = 'proof' | 'check' | 'read';

/**
 * With a cache, each part of the read (devices, handprints, each stage's facts) comes from the cache when all of
 * it is there (checked in the write), and the rest is read. When nothing is left to read there is no read
 * statement at all, not even of stored answers: a retry then loses at the events' unique index and is answered
 * from what its original stored, as a retry racing its original always was. `attempt.proved` is set when the write
 * carries a proof instead of the checks, so that the caller can tell a failed proof from stale facts.
 */
async function storeIn(
  db: Queryable,
  batch: Pending[],
  risk: RiskOptions,
  locked: boolean,
  cache: FactCache | undefined,
  use: FactUse,
  outbox?: BatchOutbox,
  attempt = { proved: false },
): Promise<(StoredOutcome | ItemFailure)[]> {
  const outcomes: (StoredOutcome | ItemFailure | undefined)[] = new Array(batch.length);
  // Before any fact is taken or read: a clear after this point keeps them out of the cache (FactCache.clear).
  const generation = cache?.generation;
  const keyed = new Map<string, number[]>();
  batch.forEach((p, i) => {
    if (p.event.idempotencyKey === null) return;
    const k = idemKey(p.keyId, p.event.idempotencyKey);
    const group = keyed.get(k);
    if (group) group.push(i);
    else keyed.set(k, [i]);
  });
  if (locked && keyed.size > 0) {
    const sorted = [...keyed.keys()].sort();
    await preparedRows(db, sql`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(q.k, 7) AS h FROM ${keys(sorted)} ORDER BY 1) AS locks`);
  }

  const { taken: cached, provenAfter } =
    cache && use !== 'read'
      ? cache.serve((): (CachedPart | undefined)[] => [...cachedSightings(batch, cache), ...risk.stages.map((s) => s.cached?.(batch, cache))])
      : { taken: [] as (CachedPart | undefined)[], provenAfter: undefined };
  let sightingReads: Sql[] | undefined;
  const reads = [
    () => (sightingReads ??= readSightings(batch))[0]!,
    () => (sightingReads ??= readSightings(batch))[1]!,
    ...risk.stages.map((s) => () => s.read?.(batch) ?? null),
  ].map((read, i) => (cached[i] ? null : read()));
  const toRead = reads.some((r) => r !== null);
  // Where proofs are tried, the read also says what its snapshot saw, so that the commit can tell whether anything was
  // written between the two (FactCache.committed).
  const proving = cache?.proving === true;
  const [stored, ...parts] = toRead
    ? await readAll(db, [
        keyed.size > 0 ? readStored([...keyed.keys()].map(splitIdemKey)) : sql`NULL::json`,
        ...reads.map((r) => r ?? sql`NULL::json`),
        ...(proving ? [SNAPSHOT] : []),
      ])
    : [null];
  const readSnapshot = toRead ? parseSnapshot(parts[reads.length]) : null;
  const [devices, handprints, ...facts] = reads.map((_, i) => (cached[i] ? cached[i].facts : (parts[i] ?? null)));
  const checks = cached.flatMap((part) => (part?.stale ? [part.stale] : []));
  attempt.proved = checks.length > 0 && use === 'proof' && provenAfter !== undefined;
  const stale = attempt.proved ? [notNextXid(provenAfter!)] : checks.map((check) => check());
  for (const [k, response] of answersOf(stored)) {
    for (const i of keyed.get(k) ?? []) outcomes[i] = { insights: response, replayed: true };
    keyed.delete(k);
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
    const pending = fresh.map((i) => batch[i]!);
    const { sightings, writes, remember } = resolveSightings(pending, [devices, handprints]);
    const evaluated = await evaluateBatch(db, locked, pending, sightings, facts, risk);
    const answers = evaluated.insights.map((insights) => JSON.stringify(insights));
    const { claim, insert } = insertEvents(pending, evaluated.insights, answers, stale, proving);
    const parts = [...writes, ...evaluated.writes, ...(claim ? [claim] : [])];
    // writeAll names its parts w0, w1, …: the outbox reads the claim's RETURNING by that name.
    const announce = outbox?.(pending, evaluated.insights, claim ? raw(`w${parts.length - 1}`) : null);
    const inserted = await writeAll<{ id: string; xid?: string; snapshot?: string }>(db, [...parts, ...(announce ? [announce] : [])], (ctes) =>
      insert(claim ? ctes[parts.length - 1]! : null),
    );
    if (cache) {
      const written = inserted[0];
      const xid = written?.xid === undefined ? undefined : BigInt(written.xid);
      cache.committed({ xid, written: parseSnapshot(written?.snapshot), read: readSnapshot, proved: attempt.proved, generation: generation! }, () => {
        for (const r of [remember, ...evaluated.remember]) r(cache);
      });
      cache.commits[toRead ? 'read' : 'cached']++;
    }
    const stored = new Set(inserted.map((r) => r.id));
    fresh.forEach((i, j) => {
      outcomes[i] = { insights: evaluated.insights[j]!, replayed: false, json: answers[j] };
    });
    // A retry racing its original in another batch lost at the unique index: answer what the original stored.
    const lost = pending.filter((p) => !stored.has(p.eventId));
    if (lost.length > 0) {
      const [again] = await readAll(db, [readStored(lost.map((p) => [p.keyId, p.event.idempotencyKey!]))]);
      const answers = answersOf(again);
      fresh.forEach((i, j) => {
        const p = pending[j]!;
        if (stored.has(p.eventId)) return;
        const response = answers.get(idemKey(p.keyId, p.event.idempotencyKey!));
        // The key's event went between the claim and this read (retention dropped its partition, key and all):
        // this event was not stored, and its neighbours were. Only it fails, as retryable; a retry finds the key
        // free and is stored.
        outcomes[i] = response
          ? { insights: response, replayed: true }
          : new ItemFailure(new VigilError('unavailable', 'the event could not be stored; retry it', { headers: { 'Retry-After': '1' } }));
      });
    }
  }

  for (const [i, first] of copies) {
    const original = outcomes[first]!;
    outcomes[i] = original instanceof ItemFailure ? original : { insights: original.insights, replayed: true };
  }
  return outcomes as (StoredOutcome | ItemFailure)[];
}

type StoredRow = [keyId: string, key: string, response: Insights];

/**
 * Stored answers of (key id, idempotency key) pairs, as one part of a read; `answersOf` decodes them. The key row
 * names its event's partition (occurred_at), so each probe reads one partition's primary key.
 */
function readStored(pairs: [string, string][]): Sql {
  return sql`(SELECT json_agg(json_build_array(e.key_id, e.idempotency_key, e.response))
    FROM ${records(
      pairs.map(([k, i]) => ({ k, i })),
      'k text, i text',
      'q',
    )}
    CROSS JOIN ${probe(
      sql`SELECT k.key_id, k.idempotency_key, e.response FROM event_keys k
          JOIN events e ON e.id = k.event_id AND e.occurred_at = k.occurred_at
          WHERE k.key_id = q.k AND k.idempotency_key = q.i`,
    )} AS e)`;
}

/** What `readStored` read, by idempotency key. */
function answersOf(read: unknown): Map<string, Insights> {
  return new Map(((read as StoredRow[] | null) ?? []).map(([keyId, key, response]) => [idemKey(keyId, key), response]));
}

/**
 * The batch's events as one INSERT, after `claim` (a CTE before it) has claimed their idempotency keys; the insert
 * returns the ids actually written (a racing retry's copy claimed nothing, so it is not). Keys are claimed in
 * order so two batches sharing keys wait on each other's in the same order. `stale`: the checks of what the cache
 * served; if any holds, `vigil_facts_hold` raises and the whole statement (every CTE's write too) is undone. The
 * call is a subquery so that it runs once per statement (an init plan), not once per row as a volatile function
 * in the WHERE clause would.
 */
function insertEvents(
  pending: Pending[],
  insights: Insights[],
  answers: readonly string[],
  stale: readonly Sql[],
  withXid: boolean,
): { claim: Sql | null; insert: (claimed: Sql | null) => Sql } {
  const keyed: { k: string; i: string; id: string; at: string }[] = [];
  // Each row's JSON with its answer spliced in as already serialised: the answer is serialised once, for both
  // the database and the HTTP reply.
  const rows = pending.map((p, i) => {
    const e = p.event;
    const answer = insights[i]!;
    const row = {
      id: p.eventId,
      key_id: p.keyId,
      idempotency_key: e.idempotencyKey,
      name: e.name,
      identity: e.identity,
      device_id: e.deviceId,
      handprint_id: p.handprintId,
      session_id: e.sessionId,
      ip: e.ip,
      user_agent: e.userAgent,
      properties: e.properties,
      tags: answer.current_tags,
      risk_score: answer.risk_score,
      occurred_at: e.occurredAt.toISOString(),
      received_at: e.receivedAt.toISOString(),
    };
    if (row.idempotency_key !== null) keyed.push({ k: row.key_id, i: row.idempotency_key, id: row.id, at: row.occurred_at });
    const json = JSON.stringify(row);
    return `${json.slice(0, -1)},"response":${answers[i]!}}`;
  });
  const claim =
    keyed.length === 0
      ? null
      : sql`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at)
          SELECT k, i, id, at FROM ${records(keyed, 'k text, i text, id text, at timestamptz', 'c')}
          ORDER BY k, i
          ON CONFLICT (key_id, idempotency_key) DO NOTHING
          RETURNING event_id`;
  const insert = (claimed: Sql | null) => sql`INSERT INTO events (id, key_id, idempotency_key, name, identity, device_id, handprint_id, session_id, ip,
      user_agent, properties, tags, risk_score, response, occurred_at, received_at)
    SELECT * FROM ${recordsJson(
      `[${rows.join(',')}]`,
      `id text, key_id text, idempotency_key text, name text, identity text, device_id text, handprint_id text,
       session_id text, ip text, user_agent text, properties jsonb, tags text[], risk_score float8, response jsonb,
       occurred_at timestamptz, received_at timestamptz`,
    )}
    WHERE ${stale.length > 0 ? sql`CASE WHEN (SELECT vigil_facts_hold(${join(stale, ' OR ')})) THEN ` : sql``}
      (t.idempotency_key IS NULL ${claimed ? sql`OR t.id IN (SELECT event_id FROM ${claimed})` : sql``})
      ${stale.length > 0 ? sql`END` : sql``}
    RETURNING id${withXid ? sql`, (SELECT pg_current_xact_id()::text) AS xid, (SELECT ${SNAPSHOT}) AS snapshot` : sql``}`;
  return { claim, insert };
}
