import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
  /** Set while an admin has disabled the account: it cannot sign in and its sessions and tokens are refused. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
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
    /** Sessions always expire; tokens when created with an expiry (null: never). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Revocation (or logout) is immediate. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The token that replaced this one by rotation; this one works until `expires_at`, the overlap. */
    replacedBy: text('replaced_by'),
    /** When Vigil noticed the token had expired, so the expiry is announced (`key.expired`) once. */
    expiryNotedAt: timestamp('expiry_noted_at', { withTimezone: true }),
  },
  (t) => [index('supervisor_credentials_supervisor_idx').on(t.supervisorId)],
);

/**
 * Every change an admin (or the CLI) makes to an account or its credentials. Not tied to `supervisors` by a foreign
 * key: the usernames are copied in, so an entry stays readable after the account is deleted.
 */
export const accountAudit = pgTable(
  'account_audit',
  {
    /** Time-sortable id (`aud_…`). */
    id: text('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** create | disable | enable | delete | reset_password | set_role | create_token | revoke_token | revoke_session */
    action: text('action').notNull(),
    /** `supervisor` (GraphQL, console) or `cli` (the vigil command on the server). */
    actorKind: text('actor_kind').notNull(),
    /** Supervisor id of the actor; null for the CLI. */
    actorId: text('actor_id'),
    /** Username of the actor as it was (for the CLI, `cli:<os user>`). */
    actorName: text('actor_name').notNull(),
    /** Id of the account acted on (it may no longer exist). */
    subjectId: text('subject_id').notNull(),
    /** Username of the account acted on, as it was. */
    subjectName: text('subject_name').notNull(),
    /** What changed: `{from, to}` of a role, a credential's id and name. */
    detail: jsonb('detail').$type<Record<string, unknown>>(),
  },
  (t) => [index('account_audit_at_idx').on(t.at), index('account_audit_subject_idx').on(t.subjectName, t.at)],
);

export type AccountAuditRow = typeof accountAudit.$inferSelect;
export type SupervisorRow = typeof supervisors.$inferSelect;
export type SupervisorCredentialRow = typeof supervisorCredentials.$inferSelect;
