import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { CLEAR_WINDOW_SUMMARY } from '@vigil/drizzle/schema';
import { ERASED_NOTICE, FACTS_CHANNEL } from '../pipeline/fact-cache.js';
import type { Db, Queryable } from '../db/handle.js';
import { column, rows } from '../db/rows.js';
import { leafPartitions } from './tables.js';
import { needles, replacements, rewriteJson, rewriteText, type Erased, type Replacements } from './rewrite.js';
import type { IdentityValues } from './values.js';

/** Events read per statement while walking a partition: bounds the memory of an erasure, whatever the identity holds. */
export const ERASE_BATCH = 1000;

export interface ErasureReport {
  /** What the identity was replaced with where history is kept. */
  pseudonym: string;
  found: { emails: number; phones: number; ips: number };
  /** Rows changed (or deleted) per table; events per partition are summed into `events`. */
  changed: Record<string, number>;
}

export interface EraseOptions {
  batchSize?: number;
  progress?: (line: string) => void;
}

/** `erased_` and 16 random base32 characters: a pseudonym tied to nothing, not even to a key. */
export function newPseudonym(): string {
  return `erased_${randomBytes(10).toString('hex')}`;
}

/** The pseudonyms of one erasure: the identity's own, and one per e-mail, phone and IP (distinct group keys stay distinct). */
export function erasedValues(values: IdentityValues, pseudonym: string): { own: Replacements; shared: Replacements; mapping: string } {
  const shared: Erased[] = [
    { value: values.identity, pseudonym, caseless: false, inside: true },
    ...values.emails.map((value, i) => ({ value, pseudonym: `${pseudonym}_email${i + 1}`, caseless: true, inside: true })),
    ...values.phones.map((value, i) => ({ value, pseudonym: `${pseudonym}_phone${i + 1}`, caseless: true, inside: true })),
  ];
  const ips = values.ips.map((value, i) => ({ value, pseudonym: `${pseudonym}_ip${i + 1}`, caseless: true, inside: false }));
  // Group keys and counted items hold values exactly as events carried them: each as given, and lowercased.
  const exact = shared.flatMap((e) =>
    e.caseless
      ? [
          [e.value, e.pseudonym],
          [e.value.toLowerCase(), e.pseudonym],
        ]
      : [[e.value, e.pseudonym]],
  );
  return { own: replacements([...shared, ...ips]), shared: replacements(shared), mapping: JSON.stringify(Object.fromEntries(exact)) };
}

/** `strpos(lower(text), any needle) > 0`: the prefilter that finds rows holding an erased value. */
const holds = (text: ReturnType<typeof sql>, r: Replacements) =>
  sql`EXISTS (SELECT 1 FROM unnest(${column(needles(r), 'text')}) AS n(v) WHERE strpos(lower(${text}), n.v) > 0)`;

interface EventHit {
  id: string;
  own: boolean;
  key_id: string;
  identity: string | null;
  idempotency_key: string | null;
  session_id: string | null;
  user_agent: string | null;
  ip: string | null;
  properties: unknown;
  response: unknown;
}

const text = (value: string | null, r: Replacements) => (value === null ? null : rewriteText(value, r));

/**
 * Erases an identity: its e-mail and phone sightings are deleted, and everywhere history is kept (events, the
 * registry and its audit, which devices it used, behavior counters) the identity and its contact values are
 * replaced by pseudonyms, so counts and totals stay what they were. Its own events also lose their IP address.
 *
 * Run in batches, each its own transaction, so an identity with millions of events takes bounded memory and never
 * holds locks for long; a batch that fails leaves the ones before it done, and running the erasure again finishes
 * it. Ends by telling every process to drop its cached facts (the cache holds identities and addresses).
 *
 * Where a new table holds identities (the webhooks outbox, for one), its rewrite belongs in `eraseTables`.
 */
export async function eraseIdentity(db: Db, values: IdentityValues, options: EraseOptions = {}): Promise<ErasureReport> {
  const progress = options.progress ?? (() => {});
  const batch = options.batchSize ?? ERASE_BATCH;
  const pseudonym = newPseudonym();
  const { own, shared, mapping } = erasedValues(values, pseudonym);
  const changed: Record<string, number> = {};
  const count = (table: string, n: number) => (changed[table] = (changed[table] ?? 0) + n);

  await eraseTables(db, values, shared, mapping, count, progress);
  for (const part of await leafPartitions(db, 'behavior_points')) {
    const n = await rewriteBehaviorPoints(db, part, mapping);
    if (n) progress(`behavior_points ${part}: ${n} rewritten`);
    count('behavior_points', n);
  }
  // Events last, and the identity's own events after everyone else's: they are where its e-mails and phones are
  // found, so an erasure interrupted anywhere finds every value not yet erased when run once more.
  const parts = await leafPartitions(db, 'events');
  const fields = sql`json_build_object('id', id, 'own', identity IS NOT DISTINCT FROM ${values.identity}, 'key_id', key_id,
    'identity', identity, 'idempotency_key', idempotency_key, 'session_id', session_id, 'user_agent', user_agent,
    'ip', ip, 'properties', properties, 'response', response)`;
  for (const part of parts) {
    // Others' events quoting the identity or its contacts: a walk of the whole partition in id order.
    let cursor = '';
    let scanned = 0;
    let rewritten = 0;
    for (;;) {
      const [window] = await rows<{ last: string | null; n: number; hits: EventHit[] | null }>(
        db,
        sql`WITH w AS (SELECT * FROM ${sql.raw(part)} WHERE id > ${cursor} ORDER BY id LIMIT ${batch})
            SELECT (SELECT max(id) FROM w) AS last, (SELECT count(*)::int FROM w) AS n,
                   (SELECT json_agg(${fields}) FROM w WHERE identity IS DISTINCT FROM ${values.identity}
                      AND ${holds(sql`concat_ws(' ', identity, idempotency_key, session_id, user_agent, properties::text, response::text)`, shared)}) AS hits`,
      );
      if (!window?.last) break;
      cursor = window.last;
      scanned += window.n;
      if (window.hits?.length) rewritten += await rewriteEvents(db, part, window.hits, own, shared);
      if (window.n < batch) break;
      if (scanned % (batch * 50) === 0) progress(`events ${part}: ${scanned} scanned, ${rewritten} rewritten`);
    }
    if (scanned) progress(`events ${part}: ${scanned} scanned, ${rewritten} rewritten`);
    count('events', rewritten);
  }
  for (const part of parts) {
    // The identity's own events, through its index (identity, occurred_at).
    let after: { at: string; id: string } | null = null;
    let rewritten = 0;
    for (;;) {
      const hits: (EventHit & { at: string })[] = (
        await rows<{ e: EventHit & { at: string } }>(
          db,
          sql`SELECT ${fields}::jsonb || jsonb_build_object('at', occurred_at::text) AS e FROM ${sql.raw(part)}
              WHERE identity = ${values.identity} ${after ? sql`AND (occurred_at, id) > (${after.at}::timestamptz, ${after.id})` : sql``}
              ORDER BY occurred_at, id LIMIT ${batch}`,
        )
      ).map((r) => r.e);
      if (hits.length === 0) break;
      rewritten += await rewriteEvents(db, part, hits, own, shared);
      after = { at: hits.at(-1)!.at, id: hits.at(-1)!.id };
      if (hits.length < batch) break;
      if (rewritten % (batch * 50) === 0) progress(`the identity's events ${part}: ${rewritten} rewritten`);
    }
    if (rewritten) progress(`the identity's events ${part}: ${rewritten} rewritten`);
    count('events', rewritten);
  }
  await db.execute(sql`SELECT pg_notify(${FACTS_CHANNEL}, ${ERASED_NOTICE})`);
  return { pseudonym, found: { emails: values.emails.length, phones: values.phones.length, ips: values.ips.length }, changed };
}

async function rewriteEvents(db: Db, part: string, hits: EventHit[], own: Replacements, shared: Replacements): Promise<number> {
  const keyMoves: { key_id: string; old: string; new: string }[] = [];
  const updated = hits.map((e) => {
    const r = e.own ? own : shared;
    const key = text(e.idempotency_key, r);
    if (e.idempotency_key !== null && key !== e.idempotency_key) keyMoves.push({ key_id: e.key_id, old: e.idempotency_key, new: key! });
    return {
      id: e.id,
      identity: text(e.identity, r),
      idempotency_key: key,
      session_id: text(e.session_id, r),
      user_agent: text(e.user_agent, r),
      // An event of the identity keeps no address it came from; other events keep theirs.
      ip: e.own ? null : e.ip,
      properties: rewriteJson(e.properties, r),
      response: rewriteJson(e.response, r),
    };
  });
  await db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE ${sql.raw(part)} e SET identity = u.identity, idempotency_key = u.idempotency_key, session_id = u.session_id,
          user_agent = u.user_agent, ip = u.ip, properties = u.properties, response = u.response
        FROM jsonb_to_recordset(${JSON.stringify(updated)}::jsonb)
          AS u(id text, identity text, idempotency_key text, session_id text, user_agent text, ip text, properties jsonb, response jsonb)
        WHERE e.id = u.id`);
    // The idempotency record follows its event's key, so a retry of a rewritten event is still recognised by it.
    if (keyMoves.length) {
      await tx.execute(sql`UPDATE event_keys k SET idempotency_key = u.new
          FROM jsonb_to_recordset(${JSON.stringify(keyMoves)}::jsonb) AS u(key_id text, old text, new text)
          WHERE k.key_id = u.key_id AND k.idempotency_key = u.old`);
    }
  });
  return updated.length;
}

async function affected(db: Queryable, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await db.execute(query)) as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}

/** Group keys and counted items equal to an erased value, per partition (one statement each, no rows in memory). */
function rewriteBehaviorPoints(db: Db, part: string, m: string): Promise<number> {
  return affected(
    db,
    sql`UPDATE ${sql.raw(part)} SET group_key = coalesce(${m}::jsonb->>group_key, group_key), item = coalesce(${m}::jsonb->>item, item)
        WHERE ${m}::jsonb ? group_key OR (item IS NOT NULL AND ${m}::jsonb ? item)`,
  );
}

/** Rows of a small table holding an erased value, rewritten in JS (strings inside JSON included), a batch at a time. */
async function rewriteRows(
  db: Db,
  table: string,
  key: string,
  columns: { name: string; json?: boolean }[],
  r: Replacements,
  batch = ERASE_BATCH,
): Promise<number> {
  const q = (name: string) => `"${name}"`;
  const list = sql.raw(columns.map((c) => q(c.name)).join(', '));
  const searched = sql.raw(`concat_ws(' ', ${columns.map((c) => (c.json ? `${q(c.name)}::text` : q(c.name))).join(', ')})`);
  let cursor = '';
  let total = 0;
  for (;;) {
    const found = await rows<Record<string, unknown>>(
      db,
      sql`SELECT ${sql.raw(key)} AS k, ${list} FROM ${sql.raw(table)} WHERE ${sql.raw(key)} > ${cursor} AND ${holds(searched, r)}
          ORDER BY ${sql.raw(key)} LIMIT ${batch}`,
    );
    if (found.length === 0) return total;
    cursor = found.at(-1)!.k as string;
    const updated = found.map((row) =>
      Object.fromEntries([
        ['k', row.k],
        ...columns.map((c) => {
          const v = row[c.name];
          return [c.name, v === null ? null : c.json ? rewriteJson(typeof v === 'string' ? JSON.parse(v) : v, r) : rewriteText(String(v), r)];
        }),
      ]),
    );
    const set = sql.raw(columns.map((c) => `${q(c.name)} = u.${q(c.name)}`).join(', '));
    const types = sql.raw(['k text', ...columns.map((c) => `${q(c.name)} ${c.json ? 'jsonb' : 'text'}`)].join(', '));
    total += await affected(
      db,
      sql`UPDATE ${sql.raw(table)} t SET ${set} FROM jsonb_to_recordset(${JSON.stringify(updated)}::jsonb) AS u(${types}) WHERE t.${sql.raw(key)} = u.k`,
    );
    if (found.length < batch) return total;
  }
}

/** Everything but events and behavior points: the contact sightings, the registry and its history, webhook messages, behavior buckets. */
async function eraseTables(
  db: Db,
  values: IdentityValues,
  r: Replacements,
  m: string,
  count: (table: string, n: number) => void,
  progress: (line: string) => void,
): Promise<void> {
  const emails = column(
    values.emails.map((e) => e.toLowerCase()),
    'text',
  );
  const phones = column(values.phones, 'text');
  const step = async (table: string, n: number | Promise<number>) => {
    const done = await n;
    count(table, done);
    progress(`${table}: ${done}`);
  };
  // Sightings of the identity's e-mails and phones go, then their links, in one transaction: a value's row keeps the
  // count of its links, and a batch adding a link between two commits would have left a count (or links) behind for
  // good. The first delete holds the rows: a batch adding a link to one of them waits for the commit and then makes
  // a fresh row counting only its own links, which the second delete (a later snapshot) leaves alone as it should.
  // A phone's link to the identity (a phone it shared with others) stays, pseudonymised, so the others'
  // `identities_seen` keeps its count.
  const contact = (table: 'intel_sightings' | 'intel_links') =>
    sql`DELETE FROM ${sql.raw(table)} WHERE (kind = 'email' AND lower(value) = ANY(${emails})) OR (kind = 'phone' AND value = ANY(${phones}))`;
  const erased = await db.transaction(async (tx) => ({
    sightings: await affected(tx, contact('intel_sightings')),
    links: await affected(tx, contact('intel_links')),
  }));
  await step('intel_sightings', erased.sightings);
  await step(
    'intel_links',
    erased.links + (await affected(db, sql`UPDATE intel_links SET linked = coalesce(${m}::jsonb->>linked, linked) WHERE ${m}::jsonb ? linked`)),
  );
  await step(
    'device_identities',
    affected(db, sql`UPDATE device_identities SET identity = coalesce(${m}::jsonb->>identity, identity) WHERE ${m}::jsonb ? identity`),
  );
  await step(
    'registrations',
    rewriteRows(
      db,
      'registrations',
      'device_id',
      [{ name: 'user_id' }, { name: 'role' }, { name: 'metadata', json: true }, { name: 'deactivation_reason' }, { name: 'deactivated_by' }],
      r,
    ),
  );
  await step(
    'registry_audit',
    rewriteRows(
      db,
      'registry_audit',
      'id',
      [{ name: 'from_user' }, { name: 'to_user' }, { name: 'reason' }, { name: 'by' }, { name: 'metadata', json: true }],
      r,
    ),
  );
  // Webhook messages quote what they announce (a registration's user, an event's identity); delivered or not,
  // they are rewritten like the registry (a pending one then goes out pseudonymised).
  await step('webhook_messages', rewriteRows(db, 'webhook_messages', 'id', [{ name: 'payload', json: true }], r));
  // A bucket or span quotes her as its group or among its items; a bucket also among its window summary's items,
  // and the summaries of the buckets rewritten are cleared: the next event landing there reads the rewritten body.
  const hers = sql`ARRAY(SELECT jsonb_object_keys(${m}::jsonb))`;
  const quoting = sql`${m}::jsonb ? group_key OR items && ${hers}`;
  await step(
    'behavior_buckets',
    affected(
      db,
      sql`UPDATE behavior_buckets SET group_key = coalesce(${m}::jsonb->>group_key, group_key),
            items = CASE WHEN items IS NULL THEN NULL ELSE ARRAY(SELECT coalesce(${m}::jsonb->>x, x) FROM unnest(items) WITH ORDINALITY AS i(x, o) ORDER BY o) END,
            ${sql.raw(CLEAR_WINDOW_SUMMARY)}
          WHERE ${quoting} OR body_items && ${hers}`,
    ),
  );
  // Spans are sums of buckets, built again from the rewritten ones as windows read them.
  await step('behavior_spans', affected(db, sql`DELETE FROM behavior_spans WHERE ${quoting}`));
}
