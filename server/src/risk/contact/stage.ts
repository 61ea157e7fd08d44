import type { Tx } from '../../db/handle.js';
import type { EvaluationItem, InsightStage, StageOutput } from '../stage.js';
import { analyzeEmail, looksLikeEmail, type EmailFacts } from './email.js';
import { analyzePhone, type PhoneFacts } from './phone.js';
import { recordContactSightings, sightingKey, type Sighting } from './sightings.js';

function emailOf(item: EvaluationItem): EmailFacts | null {
  const { event } = item;
  if (event.email) return analyzeEmail(event.email);
  if (event.identity && looksLikeEmail(event.identity)) return analyzeEmail(event.identity);
  return null;
}

function phoneOf(item: EvaluationItem): PhoneFacts | null {
  if (!item.event.phone) return null;
  const country = item.event.properties.phone_country;
  return analyzePhone(item.event.phone, typeof country === 'string' ? country : undefined);
}

/**
 * `email_intel` (properties.email, or an identity that is an e-mail) and `phone_intel` (properties.phone):
 * what the address or number is, when Vigil first saw it, and how many devices (e-mail) or identities (phone)
 * were seen with it.
 */
export const contactStage: InsightStage = {
  name: 'contact-intel',
  async run(tx: Tx, batch: readonly EvaluationItem[]): Promise<StageOutput[]> {
    const facts = batch.map((item) => ({ email: emailOf(item), phone: phoneOf(item) }));
    const sightings: Sighting[] = [];
    batch.forEach((item, i) => {
      const { email, phone } = facts[i]!;
      const at = item.event.occurredAt;
      if (email?.normalized) sightings.push({ kind: 'email', value: email.normalized, at, linked: item.event.deviceId ?? item.handprintId });
      if (phone?.valid && phone.e164) sightings.push({ kind: 'phone', value: phone.e164, at, linked: item.event.identity });
    });
    const seen = await recordContactSightings(tx, sightings);
    return facts.map(({ email, phone }) => {
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
  },
};
