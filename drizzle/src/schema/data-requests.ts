import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every identity export and erasure (data-protection requests), kept as proof that a request was answered. The
 * identity itself is never stored: only a keyed hash of it, so the log cannot be read back into the erased value,
 * while whoever holds the database can still tell whether a given identity was exported or erased.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    /** Time-sortable id (`dsr_…`). */
    id: text('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** `export` or `erase`. */
    action: text('action', { enum: ['export', 'erase'] }).notNull(),
    /** HMAC-SHA-256 (hex) of the identity under the generated secret `data_request_key`. */
    subjectHash: text('subject_hash').notNull(),
    /** `supervisor` (GraphQL, console) or `cli` (the vigil command on the server). */
    actorKind: text('actor_kind').notNull(),
    /** Supervisor id of the actor; null for the CLI. */
    actorId: text('actor_id'),
    /** Username of the actor as it was (for the CLI, `cli:<os user>`). */
    actorName: text('actor_name').notNull(),
    /** Counts of what was exported or changed per table, and the pseudonym an erasure wrote; never a value in clear. */
    detail: jsonb('detail').$type<Record<string, unknown>>(),
  },
  (t) => [index('data_requests_subject_idx').on(t.subjectHash, t.at)],
);

export type DataRequestRow = typeof dataRequests.$inferSelect;
