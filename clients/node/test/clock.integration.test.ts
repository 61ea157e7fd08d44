import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { collectingClient } from './support/collect.js';
import { recordedVigil } from './support/recorded-vigil.js';
import { deliveredBatchItems } from './support/recording-proxy.js';

/**
 * A backend whose clock is an hour fast. Its events are stamped an hour ahead, which Vigil refuses (more than 5
 * minutes in the future) unless the request says when it was sent by the same clock: then Vigil moves each timestamp
 * by the clock's error, and the events are stored at the time they happened.
 */
const HOUR = 3_600_000;
const fastClock = { now: () => Date.now() + HOUR, setTimeout: systemClock.setTimeout };

const vigil = recordedVigil();

describe('a backend whose clock is an hour fast', () => {
  it('trackAsync: the event is answered and stored, its send time on the request', async () => {
    const { client, errors } = collectingClient(vigil.recorder.url, vigil.server.writeKey, { clock: fastClock });
    const insights = await client.trackAsync('login', { event_id: 'fast-single' });
    expect(insights.failOpen).toBe(false);
    expect(errors).toEqual([]);
    const exchange = vigil.recorder.exchanges.find((x) => x.path === '/events');
    expect(exchange?.status).toBe(200);
    // The library's clock, not the real one: the hour is the error Vigil corrects.
    expect(Date.parse(exchange!.body.sent_at) - exchange!.receivedAt).toBeGreaterThan(HOUR - 60_000);
    await client.close();
  });

  it('track: every event of the batch is stored', async () => {
    const { client, errors } = collectingClient(vigil.recorder.url, vigil.server.writeKey, { clock: fastClock });
    client.track('view', { event_id: 'fast-batch-1' });
    client.track('view', { event_id: 'fast-batch-2' });
    await client.flush();
    const results = deliveredBatchItems(vigil.recorder.exchanges).map((x) => [x.event.properties.event_id, x.result.status]);
    expect(results).toEqual([
      ['fast-batch-1', 200],
      ['fast-batch-2', 200],
    ]);
    expect(errors).toEqual([]);
    await client.close();
  });
});
