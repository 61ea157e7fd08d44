import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** First sighting of a normalised e-mail address or E.164 phone number. */
export const intelSightings = pgTable(
  'intel_sightings',
  {
    /** `email` or `phone`. */
    kind: text('kind', { enum: ['email', 'phone'] }).notNull(),
    value: text('value').notNull(),
    /** Earliest event time seen with it (late offline events move it back). */
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    /** Its rows in intel_links, kept by the write that adds them: an event reads one row, not the value's every link. */
    links: integer('links').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.value] })],
);

/** Which devices (for e-mails) or identities (for phones) were seen with a value; counted in the response. */
export const intelLinks = pgTable(
  'intel_links',
  {
    kind: text('kind', { enum: ['email', 'phone'] }).notNull(),
    value: text('value').notNull(),
    linked: text('linked').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.value, t.linked] })],
);
