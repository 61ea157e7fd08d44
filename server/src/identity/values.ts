import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { analyzeEmail, looksLikeEmail } from '../risk/contact/email.js';
import { analyzePhone } from '../risk/contact/phone.js';

/** What Vigil holds that names one identity, found from its own events and registrations. */
export interface IdentityValues {
  identity: string;
  /** E-mail addresses as given (`properties.email`, an identity that is an address) and as normalised for intel. */
  emails: string[];
  /** Phone numbers as given (`properties.phone`) and in E.164. */
  phones: string[];
  /** Client IP addresses of the identity's events. */
  ips: string[];
}

const distinct = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))].sort();

/**
 * The identity's e-mails, phones and IPs, each as stored and as the contact stage normalised it (so the intel
 * sightings keyed by the normalised form are found too). One aggregate statement per kind over the identity's
 * events (its index): the database does the distinct, so memory stays that of the distinct values.
 */
export async function identityValues(db: Queryable, identity: string): Promise<IdentityValues> {
  const [found] = await rows<{ emails: string[] | null; phones: string[] | null; ips: string[] | null }>(
    db,
    sql`SELECT
          (SELECT array_agg(DISTINCT v) FROM events e,
             LATERAL (VALUES (e.properties->>'email'), (e.response->'email_intel'->>'address'), (e.response->'email_intel'->>'normalized')) x(v)
           WHERE e.identity = ${identity} AND v IS NOT NULL) AS emails,
          (SELECT array_agg(DISTINCT v) FROM events e,
             LATERAL (VALUES (e.properties->>'phone'), (e.response->'phone_intel'->>'number'), (e.response->'phone_intel'->>'e164')) x(v)
           WHERE e.identity = ${identity} AND v IS NOT NULL) AS phones,
          (SELECT array_agg(DISTINCT e.ip) FROM events e WHERE e.identity = ${identity} AND e.ip IS NOT NULL) AS ips`,
  );
  const emails = found?.emails ?? [];
  const phones = found?.phones ?? [];
  // An identity that is an address is an e-mail of its own, whether or not an event carried it.
  if (looksLikeEmail(identity)) emails.push(identity);
  return {
    identity,
    emails: distinct([...emails, ...emails.map((e) => analyzeEmail(e).normalized)]),
    phones: distinct([...phones, ...phones.map((p) => analyzePhone(p).e164)]),
    ips: distinct(found?.ips ?? []),
  };
}
