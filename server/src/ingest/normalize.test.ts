import { describe, expect, it } from 'vitest';
import { VigilError } from '../errors.js';
import type { RequestContext } from '../pipeline/event.js';
import { normalizeEvent } from './normalize.js';

const ctx: RequestContext = {
  ip: '203.0.113.9',
  userAgent: undefined,
  acceptLanguage: undefined,
  idempotencyKey: undefined,
  keyId: 'key_1',
  keyKind: 'client',
};
const now = new Date('2026-03-01T12:00:00.000Z');
const hourFast = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString();

describe('the sender clock correction (sent_at)', () => {
  it("moves the timestamp by the sender's clock error, so a clock an hour fast is not refused", () => {
    // Stamped 30 s before sending, by a clock an hour fast; the request took 2 s.
    const timestamp = hourFast('2026-03-01T11:59:28.000Z');
    const sentAt = hourFast('2026-03-01T11:59:58.000Z');
    expect(() => normalizeEvent({ event: 'login', properties: { timestamp } }, ctx, now)).toThrow(VigilError);
    const event = normalizeEvent({ event: 'login', properties: { timestamp }, sent_at: sentAt }, ctx, now);
    expect(event.occurredAt.toISOString()).toBe('2026-03-01T11:59:30.000Z');
    expect(event.properties.timestamp).toBe(timestamp);
  });

  it("takes a batch's sent_at from the request when the event has none of its own", () => {
    const event = normalizeEvent(
      { event: 'login', properties: { timestamp: '2026-03-01T10:00:00.000Z' } },
      { ...ctx, sentAt: '2026-03-01T10:00:00.000Z' },
      now,
    );
    expect(event.occurredAt.toISOString()).toBe(now.toISOString());
  });

  it('still refuses a timestamp in the future once corrected', () => {
    const body = { event: 'login', properties: { timestamp: '2026-03-01T13:00:00.000Z' }, sent_at: '2026-03-01T12:00:00.000Z' };
    expect(() => normalizeEvent(body, ctx, now)).toThrow(/5 minutes in the future/);
  });
});
