import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Browser handprint profiles: the normalized features behind each `hp_…` id issued by POST /js/collect. Matching is
 * fuzzy (see clients/browser/SERVER_CONTRACT.md), so the latest reading is kept per handprint and compared with
 * the next one; `handprints` (devices.ts) only records when an id was seen in events.
 */
export const handprintProfiles = pgTable(
  'handprint_profiles',
  {
    /** The handprint id (`hp_…`). */
    handprintId: text('handprint_id').primaryKey(),
    /** Normalized features of the latest matching reading, merged feature by feature. */
    features: jsonb('features').$type<Record<string, unknown>>().notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [index('handprint_profiles_last_seen_idx').on(t.lastSeen)],
);

/** Salted lookup keys of a profile; a new reading fetches its candidates by any shared key. */
export const handprintProfileKeys = pgTable(
  'handprint_profile_keys',
  {
    key: text('key').notNull(),
    handprintId: text('handprint_id')
      .notNull()
      .references(() => handprintProfiles.handprintId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.key, t.handprintId] }), index('handprint_profile_keys_handprint_idx').on(t.handprintId)],
);

/** Browser device_ids seen with a handprint: a tie-breaker when matching, and the handprint of a device's events. */
export const handprintProfileDevices = pgTable(
  'handprint_profile_devices',
  {
    handprintId: text('handprint_id')
      .notNull()
      .references(() => handprintProfiles.handprintId, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    /** The browser's latest `device_signals` block (automation evidence), attached to its linked events. */
    deviceSignals: jsonb('device_signals').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.handprintId, t.deviceId] }), index('handprint_profile_devices_device_idx').on(t.deviceId, t.lastSeen)],
);

/** Uses of each browser_token (by jti), shared by every Vigil process; rows are deleted after the token expires. */
export const browserTokenUses = pgTable(
  'browser_token_uses',
  {
    jti: text('jti').primaryKey(),
    uses: integer('uses').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('browser_token_uses_expires_idx').on(t.expiresAt)],
);

/**
 * Secrets Vigil generated for itself on first start when the operator configured none (the browser_token signing
 * key, the handprint salt), so every process and every restart uses the same ones.
 */
export const generatedSecrets = pgTable('generated_secrets', {
  /** `browser_token_key` or `handprint_salt`. */
  name: text('name').primaryKey(),
  /** JSON text; never returned by any route. */
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
