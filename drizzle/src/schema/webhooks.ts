import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Where Vigil sends webhooks (Standard Webhooks), and which events each endpoint wants. */
export const webhookSubscriptions = pgTable('webhook_subscriptions', {
  /** Time-sortable id (`whs_…`). */
  id: text('id').primaryKey(),
  /** The receiver's URL (http or https), checked against private addresses at creation and at each delivery. */
  url: text('url').notNull(),
  /** Operator's note on what the endpoint is for. */
  description: text('description').notNull().default(''),
  /** Signing secret `whsec_…` (Standard Webhooks); kept in clear because every delivery must be signed with it. */
  secret: text('secret').notNull(),
  /** Event types the endpoint receives (`device.tag_added`, …). */
  eventTypes: text('event_types').array().notNull(),
  /** `device.tag_added` only for these tags; empty: any tag. */
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  /** `device.score_exceeded` fires when a device's score rises above this (0..1). */
  scoreThreshold: doublePrecision('score_threshold'),
  /** Disabled endpoints get nothing new; a 410 Gone answer disables one. */
  enabled: boolean('enabled').notNull().default(true),
  /** Why it was disabled (`gone`: the receiver answered 410; `operator`). */
  disabledReason: text('disabled_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The outbox: one row per event and subscription, written in the transaction of the change it announces, and the
 * delivery state of that message. Any process delivers: it claims due rows (`FOR UPDATE SKIP LOCKED` on
 * PostgreSQL) by moving `next_attempt_at` past a lease, so a process killed mid-delivery leaves the row due again.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    /** Time-sortable id (`msg_…`), sent as `webhook-id`: the same on every attempt, so receivers can deduplicate. */
    id: text('id').primaryKey(),
    /** The subscription it is for (no foreign key: deleting a subscription keeps its log until retention). */
    subscriptionId: text('subscription_id').notNull(),
    /** Event type, as in the payload. */
    type: text('type').notNull(),
    /** The body sent, exactly: `{type, timestamp, data}`. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** `pending`, `delivered`, `dead` (attempts exhausted), or `cancelled` (its subscription was disabled or deleted). */
    status: text('status', { enum: ['pending', 'delivered', 'dead', 'cancelled'] })
      .notNull()
      .default('pending'),
    /** Delivery attempts made (the first included). */
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (or, while claimed, when the claim lapses). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** HTTP status of the latest attempt (null: no answer). */
    lastStatus: integer('last_status'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_messages_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_messages_subscription_idx').on(t.subscriptionId, t.createdAt),
  ],
);

/** The delivery log: one row per attempt, with what the receiver answered and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    /** Time-sortable id (`wha_…`). */
    id: text('id').primaryKey(),
    messageId: text('message_id').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    /** 1 for the first attempt. */
    attempt: integer('attempt').notNull(),
    /** HTTP status answered; null when none came (refused, timed out, blocked address). */
    status: integer('status'),
    /** Milliseconds from sending to the answer (or the failure). */
    durationMs: integer('duration_ms').notNull(),
    /** Why it failed without an answer, or the first bytes of an error answer. */
    error: text('error'),
    /** `manual` when an operator asked for it (redelivery), else `auto`. */
    trigger: text('trigger').notNull().default('auto'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_attempts_message_idx').on(t.messageId, t.at), index('webhook_attempts_subscription_idx').on(t.subscriptionId, t.at)],
);

export type WebhookSubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
