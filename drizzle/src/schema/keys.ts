import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** API keys that authenticate callers of the event and device routes. The secret itself is never stored. */
export const apiKeys = pgTable(
  'api_keys',
  {
    /** Public, time-sortable identifier (`key_…`), safe to log and show. */
    id: text('id').primaryKey(),
    /** `write` (server-side secret) or `client` (browser and Android libraries). */
    kind: text('kind', { enum: ['write', 'client'] }).notNull(),
    /** Operator-chosen label. */
    name: text('name').notNull(),
    /** SHA-256 of the full key, hex; the only way a presented key is found. */
    hash: text('hash').notNull().unique(),
    /** First characters of the key, shown in listings so operators can tell keys apart. */
    displayPrefix: text('display_prefix').notNull(),
    /** When the key was created. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last time the key authenticated a request; flushed periodically, not per request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Set when the key is revoked; a revoked key never authenticates again. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** When the key stops working (null: never); a rotation moves it to the end of the overlap. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The key that replaced this one by rotation; this one works until `expires_at`, the overlap. */
    replacedBy: text('replaced_by'),
    /** When Vigil noticed the key had expired, so the expiry is announced (`key.expired`) once. */
    expiryNotedAt: timestamp('expiry_noted_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_kind_idx').on(t.kind)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
