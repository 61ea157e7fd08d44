import { describe, expect, it } from 'vitest';
import { toQuery } from '../db/statement.js';
import type { Insights } from '../pipeline/insights.js';
import type { NormalizedEvent } from '../pipeline/event.js';
import { ingestOutboxWrite, type IngestedEvent, type IngestSubscription } from './ingest-outbox.js';

const at = new Date('2026-11-23T04:00:00Z');
const ingested = (eventId: string, deviceId: string | null): IngestedEvent => ({
  eventId,
  event: { name: 'login', identity: 'ana', deviceId, idempotencyKey: null, occurredAt: at, receivedAt: at } as NormalizedEvent,
});
const answer = (tags: string[], risk_score = 0): Insights => ({ current_tags: tags, risk_score }) as Insights;
const tor: IngestSubscription = { id: 'whs_tor', tagAdded: true, tags: ['tor'], scoreThreshold: null };

/** The candidate messages a write would insert (before the stored-state check in SQL). */
function candidates(subs: IngestSubscription[], batch: IngestedEvent[], insights: Insights[]) {
  const statement = ingestOutboxWrite(subs, batch, insights, null);
  if (!statement) return null;
  const json = toQuery(statement).params.find((p) => typeof p === 'string' && p.startsWith('[')) as string;
  return (JSON.parse(json) as { type: string; tag: string | null; event: string; stored: boolean }[]).map((c) => [c.type, c.tag, c.event, c.stored]);
}

describe('which events can announce a webhook', () => {
  it('adds nothing to the write without subscriptions, or when no event can match', () => {
    expect(ingestOutboxWrite([], [ingested('e1', 'd1')], [answer(['tor'])], null)).toBeNull();
    expect(candidates([tor], [ingested('e1', 'd1')], [answer(['vpn'])])).toBeNull();
    expect(candidates([tor], [ingested('e1', null)], [answer(['tor'])])).toBeNull();
  });

  it('compares a device’s later events in a batch with its earlier one, and its first with the stored state', () => {
    const batch = [ingested('e1', 'd1'), ingested('e2', 'd1'), ingested('e3', 'd1'), ingested('e4', 'd1')];
    expect(candidates([tor], batch, [answer(['tor']), answer(['tor']), answer([]), answer(['tor'])])).toEqual([
      ['device.tag_added', 'tor', 'e1', true],
      ['device.tag_added', 'tor', 'e4', false],
    ]);
  });

  it('announces every tag that appeared when the subscription names none, and a score crossing once', () => {
    const any: IngestSubscription = { id: 'whs_any', tagAdded: true, tags: [], scoreThreshold: 0.5 };
    const batch = [ingested('e1', 'd1'), ingested('e2', 'd1')];
    expect(candidates([any], batch, [answer(['tor', 'new_device'], 0.9), answer(['tor', 'new_device', 'vpn'], 0.95)])).toEqual([
      ['device.tag_added', 'tor', 'e1', true],
      ['device.tag_added', 'new_device', 'e1', true],
      ['device.score_exceeded', null, 'e1', true],
      ['device.tag_added', 'vpn', 'e2', false],
    ]);
  });
});
