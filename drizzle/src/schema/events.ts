import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Every event Vigil answered, stored before its answer was sent. */
export const events = pgTable(
  'events',
  {
    /** Vigil's time-sortable id (`evt_…`), returned as `event_id`. */
    id: text('id').primaryKey(),
    /**
     * The key that submitted the event; idempotency is scoped to it. Not a foreign key: keys are never deleted, and
     * the check share-locked the one key row every commit of every process writes for.
     */
    keyId: text('key_id').notNull(),
    /** Caller's `event_id` property or `Idempotency-Key` header; a repeat returns the stored response. */
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
    /** When the event happened (magic property `timestamp`, default: receipt time). */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** When Vigil received the event. */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('events_key_idempotency_uq').on(t.keyId, t.idempotencyKey),
    index('events_device_occurred_idx').on(t.deviceId, t.occurredAt),
    index('events_identity_occurred_idx').on(t.identity, t.occurredAt),
    index('events_handprint_occurred_idx').on(t.handprintId, t.occurredAt),
    index('events_received_idx').on(t.receivedAt),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;
