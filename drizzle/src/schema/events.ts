import { sql } from 'drizzle-orm';
import { doublePrecision, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every event Vigil answered, stored before its answer was sent. Partitioned by month of `occurred_at` (migration
 * 0005, which drizzle cannot express): retention drops whole months, so the primary key carries `occurred_at` and
 * idempotency lives in `event_keys`.
 */
export const events = pgTable(
  'events',
  {
    /** Vigil's time-sortable id (`evt_…`), returned as `event_id`. */
    id: text('id').notNull(),
    /**
     * The key that submitted the event; idempotency is scoped to it. Not a foreign key: keys are never deleted, and
     * the check share-locked the one key row every commit of every process writes for.
     */
    keyId: text('key_id').notNull(),
    /** Caller's `event_id` property or `Idempotency-Key` header; unique per key through `event_keys`. */
    idempotencyKey: text('idempotency_key'),
    /** Event name chosen by the caller (`login`, `transfer`, …). */
    name: text('name').notNull(),
    /** Caller's user identifier, when given. */
    identity: text('identity'),
    /** Caller's device identifier (magic property `device_id`), when given. */
    deviceId: text('device_id'),
    /** Cross-session fingerprint computed by Vigil. */
    handprintId: text('handprint_id').notNull(),
    /** Caller's session identifier (magic property `session_id`). */
    sessionId: text('session_id'),
    /** Client IP: the `ip_address` property or the connecting address behind trusted proxies. */
    ip: text('ip'),
    /** Client user agent: the `user_agent` property or the request header. */
    userAgent: text('user_agent'),
    /** The caller's properties exactly as received. */
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull(),
    /** Risk tags that applied when the event was answered. */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Risk score that was answered, 0..1. */
    riskScore: doublePrecision('risk_score').notNull(),
    /** The full insights body that was answered, replayed verbatim for idempotent retries. */
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    /** When the event happened (magic property `timestamp`, default: receipt time); the partition key. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** When Vigil received the event. */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'events_pkey', columns: [t.id, t.occurredAt] }),
    index('events_device_occurred_idx').on(t.deviceId, t.occurredAt),
    index('events_identity_occurred_idx').on(t.identity, t.occurredAt),
    index('events_handprint_occurred_idx').on(t.handprintId, t.occurredAt),
    /** Received order with its tie-breaker: the keyset of incremental reads and exports (events(order: RECEIVED_ASC)). */
    index('events_received_id_idx').on(t.receivedAt, t.id),
    /**
     * The user the device was registered to when the event was answered (reporting filter `userId`). Partial: most
     * events come from unregistered devices, and an entry for them would be written on every insert and never read
     * (the filter's `=` only matches non-null values).
     */
    index('events_registered_user_idx')
      .on(sql`(${t.response}->'device'->>'registered_to')`, t.occurredAt)
      .where(sql`(${t.response}->'device'->>'registered_to') IS NOT NULL`),
    /** The device's registration branch when the event was answered (reporting filter `branch`); partial, as above. */
    index('events_registered_branch_idx')
      .on(sql`(${t.response}->'device'->'metadata'->>'branch')`, t.occurredAt)
      .where(sql`(${t.response}->'device'->'metadata'->>'branch') IS NOT NULL`),
  ],
);

/**
 * One row per idempotency key ever used, kept as long as its event: a partitioned table can only enforce uniqueness
 * that includes the partition key, and a retry without a timestamp gets another `occurred_at`, so the guarantee that
 * a retried event counts once lives here, in one unpartitioned table. Retention deletes the rows of dropped events.
 */
export const eventKeys = pgTable(
  'event_keys',
  {
    /** The key that submitted the event. */
    keyId: text('key_id').notNull(),
    /** Caller's `event_id` property or `Idempotency-Key` header. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** The stored event answered for this key. */
    eventId: text('event_id').notNull(),
    /** The event's `occurred_at`: finds its partition, and tells retention when the key goes with it. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'event_keys_pkey', columns: [t.keyId, t.idempotencyKey] }), index('event_keys_occurred_idx').on(t.occurredAt)],
);

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;
