import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** People who use the supervisor REST API, GraphQL and the console. */
export const supervisors = pgTable('supervisors', {
  /** Time-sortable id (`sup_…`). */
  id: text('id').primaryKey(),
  username: text('username').notNull().unique(),
  /** scrypt, self-describing: `scrypt$N$r$p$salt$hash` (base64). */
  passwordHash: text('password_hash').notNull(),
  /** admin (everything), supervisor (reads and device changes), viewer (reads only). */
  role: text('role', { enum: ['admin', 'supervisor', 'viewer'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * API tokens (for REST and GraphQL clients) and console sessions. Like keys, only the SHA-256 is stored; a row is
 * looked up on every request, so revocation and expiry apply at once.
 */
export const supervisorCredentials = pgTable(
  'supervisor_credentials',
  {
    /** `tok_…` for tokens, `ses_…` for sessions. */
    id: text('id').primaryKey(),
    supervisorId: text('supervisor_id')
      .notNull()
      .references(() => supervisors.id),
    kind: text('kind', { enum: ['token', 'session'] }).notNull(),
    /** Operator-chosen label (tokens); `console` for sessions. */
    name: text('name').notNull(),
    hash: text('hash').notNull().unique(),
    displayPrefix: text('display_prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Sessions expire; tokens do not (null). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Revocation (or logout) is immediate. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('supervisor_credentials_supervisor_idx').on(t.supervisorId)],
);

export type SupervisorRow = typeof supervisors.$inferSelect;
export type SupervisorCredentialRow = typeof supervisorCredentials.$inferSelect;
