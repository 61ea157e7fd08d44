import type { Sql } from '../../db/statement.js';
import type { CachedPart, FactCache } from '../../pipeline/fact-cache.js';
import type { EvaluationInput, EvaluationItem, InsightStage, StageContext, StageOutput, StageResult } from '../../pipeline/stage.js';
import { analyzeEmail, looksLikeEmail, type EmailFacts } from './email.js';
import { analyzePhone, type PhoneFacts } from './phone.js';
import { cachedContactSightings, readContactSightings, resolveContactSightings, sightingKey, type Sighting } from './sightings.js';

function emailOf(item: EvaluationInput): EmailFacts | null {
  const { event } = item;
  if (event.email) return analyzeEmail(event.email);
  if (event.identity && looksLikeEmail(event.identity)) return analyzeEmail(event.identity);
  return null;
}

function phoneOf(item: EvaluationInput): PhoneFacts | null {
  if (!item.event.phone) return null;
  const country = item.event.properties.phone_country;
  return analyzePhone(item.event.phone, typeof country === 'string' ? country : undefined);
}

interface Contacts {
  email: EmailFacts | null;
  phone: PhoneFacts | null;
  sightings: Sighting[];
}

// Read and evaluate see the same event objects: analyse each once. The analysis is kept on the event itself (hidden
// from spreads, keys and JSON), not in a WeakMap keyed by it: a heap sample at 1,000 events/s found the WeakMap's
// values promoted to the old generation (1.7 MB in 4 s), to be freed only by a full collection, and none this way.
const ANALYSED = Symbol('contacts');

function contactsOf(item: EvaluationInput): Contacts {
  const memo = item.event as unknown as { [ANALYSED]?: Contacts };
  let found = memo[ANALYSED];
  if (found) return found;
  const email = emailOf(item);
  const phone = phoneOf(item);
  const at = item.event.occurredAt;
  const sightings: Sighting[] = [];
  if (email?.normalized) sightings.push({ kind: 'email', value: email.normalized, at, linked: item.event.deviceId ?? item.handprintId });
  if (phone?.valid && phone.e164) sightings.push({ kind: 'phone', value: phone.e164, at, linked: item.event.identity });
  found = { email, phone, sightings };
  Object.defineProperty(memo, ANALYSED, { value: found });
  return found;
}

/**
 * `email_intel` (properties.email, or an identity that is an e-mail) and `phone_intel` (properties.phone):
 * what the address or number is, when Vigil first saw it, and how many devices (e-mail) or identities (phone)
 * were seen with it, this batch included.
 */
export const contactStage: InsightStage = {
  name: 'contact-intel',
  read(batch: readonly EvaluationInput[]): Sql | null {
    return readContactSightings(batch.flatMap((item) => contactsOf(item).sightings));
  },
  cached(batch: readonly EvaluationInput[], cache: FactCache): CachedPart | undefined {
    return cachedContactSightings(
      batch.flatMap((item) => contactsOf(item).sightings),
      cache,
    );
  },
  evaluate(batch: readonly EvaluationItem[], { facts }: StageContext): StageResult {
    const contacts = batch.map(contactsOf);
    const { seen, writes, remember } = resolveContactSightings(
      contacts.flatMap((c) => c.sightings),
      facts,
    );
    const outputs = contacts.map(({ email, phone }) => {
      const out: StageOutput = {};
      if (email) {
        const s = email.normalized ? seen.get(sightingKey('email', email.normalized)) : undefined;
        out.email_intel = { ...email, first_seen: s?.firstSeen ?? null, devices_seen: s?.linkedCount ?? 0 };
      }
      if (phone) {
        const s = phone.valid && phone.e164 ? seen.get(sightingKey('phone', phone.e164)) : undefined;
        out.phone_intel = { ...phone, first_seen: s?.firstSeen ?? null, identities_seen: s?.linkedCount ?? 0 };
      }
      return out;
    });
    return { outputs, writes, remember };
  },
};
