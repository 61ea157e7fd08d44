import { sql, type SQL } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import { VigilError } from '../errors.js';
import { unstorable } from '../db/safe-text.js';

/**
 * A position in received order: (received_at in whole microseconds, id). Microseconds as int8 text are exact on
 * every driver (a float of milliseconds is not), and the position is compared as a row against the
 * (received_at, id) index, so each page starts where the last ended however deep it is.
 */
export interface ReceivedPosition {
  us: string;
  id: string;
}

const KIND = 'r';

export const encodeReceivedCursor = (p: ReceivedPosition): string => Buffer.from(JSON.stringify([KIND, p.us, p.id])).toString('base64url');

/**
 * A cursor of received order; any other text (a newest-first cursor too) is a 400 naming `field`. At most 16 digits
 * of microseconds (until the year 2286): a larger number would overflow PostgreSQL's timestamp arithmetic.
 */
export function decodeReceivedCursor(text: string, field = 'after'): ReceivedPosition {
  try {
    const [kind, us, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [unknown, unknown, unknown];
    if (kind === KIND && typeof us === 'string' && /^\d{1,16}$/.test(us) && typeof id === 'string' && !unstorable(id)) return { us, id };
  } catch {
    // Reported below.
  }
  throw new VigilError('validation_failed', `${field} is not a received-order cursor this API returned`, {
    errors: [{ path: field, message: 'must be a cursor returned by a previous page in received order' }],
  });
}

/** received_at in whole microseconds since the epoch, as text. */
export const receivedMicros = sql<string>`((extract(epoch from ${events.receivedAt}) * 1000000)::int8)::text`;

/** Events strictly after a position in received order. */
export const afterPosition = (p: ReceivedPosition): SQL =>
  sql`(${events.receivedAt}, ${events.id}) > (timestamptz 'epoch' + ${p.us}::int8 * interval '1 microsecond', ${p.id})`;
