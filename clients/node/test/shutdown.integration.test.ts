import { describe, expect, it } from 'vitest';
import { collectingClient } from './support/collect.js';
import { recordedVigil } from './support/recorded-vigil.js';
import { deliveredBatchItems, startProxy } from './support/recording-proxy.js';

const vigil = recordedVigil();

describe('graceful shutdown', () => {
  it('close() sends everything queued at once and Vigil stores every event', async () => {
    // A long flushInterval: only close() can make these go out during the test.
    const { client, errors } = collectingClient(vigil.recorder.url, vigil.server.writeKey, { flushInterval: 600_000 });
    const ids = Array.from({ length: 250 }, (_, i) => `shutdown-${i}`);
    for (const id of ids) client.identify(`user-${id}`).track('view', { event_id: id });
    expect(client.queued).toBe(250);

    expect(await client.close({ timeout: 30_000 })).toEqual({ flushed: true, dropped: 0 });
    expect(client.queued).toBe(0);
    expect(errors).toEqual([]);

    const batches = vigil.recorder.exchanges.filter((x) => x.path === '/events/batch');
    // A batch answered with a retryable status (408, 429, 5xx: seen once on a busy CI machine) is sent again whole, as
    // the client must, and Vigil counts it once (the replays below): only the answered batches are three.
    const answered = batches.filter((x) => x.status === 200);
    expect(answered.map((x) => x.body.events.length)).toEqual([100, 100, 50]);
    const retried = batches.filter((x) => x.status !== 200).map((x) => x.status);
    expect(retried.filter((status) => status !== 408 && status !== 429 && status < 500)).toEqual([]);
    const delivered = deliveredBatchItems(vigil.recorder.exchanges);
    expect(delivered.map((x) => x.event.properties.event_id)).toEqual(ids);
    expect(delivered.every((x) => x.result.status === 200)).toBe(true);

    // Stored, not just answered: replaying an event_id returns the id Vigil stored the first time.
    const checker = collectingClient(vigil.server.url, vigil.server.writeKey).client;
    for (let start = 0; start < delivered.length; start += 25) {
      await Promise.all(
        delivered.slice(start, start + 25).map(async ({ event, result }) => {
          const replay = await checker.trackAsync('view', { event_id: event.properties.event_id }, { timeout: 10_000 });
          expect(replay.failOpen).toBe(false);
          expect(replay.event_id).toBe(result.insights.event_id);
        }),
      );
    }
    await checker.close();
  });

  it('after close, new events are refused and reported, not silently lost', async () => {
    const { client, errors } = collectingClient(vigil.recorder.url, vigil.server.writeKey);
    await client.close();
    client.track('late');
    const insights = await client.trackAsync('late');
    expect(insights.failOpen).toBe(true);
    expect(errors.map((e) => e.code)).toEqual(['closed', 'closed']);
    expect(errors[0]!.dropped.map((e) => e.event)).toEqual(['late']);
  });

  it('close({ timeout }) returns in time when Vigil cannot be reached, reporting what it dropped', async () => {
    const stuck = await startProxy({ target: vigil.server.url, intercept: () => ({ status: 503 }) });
    try {
      const { client, errors } = collectingClient(stuck.url, vigil.server.writeKey, { minRetryDelay: 50 });
      for (let i = 0; i < 5; i++) client.track('view', { event_id: `stuck-${i}` });
      expect(await client.close({ timeout: 500 })).toEqual({ flushed: false, dropped: 5 });
      expect(errors.map((e) => e.code)).toEqual(['closed']);
      expect(errors[0]!.dropped).toHaveLength(5);
    } finally {
      await stuck.close();
    }
  });
});
