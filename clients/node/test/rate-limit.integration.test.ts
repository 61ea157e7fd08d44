import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVigil, type RunningVigil } from './start-vigil.js';
import { collectingClient } from './support/collect.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';

let server: RunningVigil;
let recorder: RecordingProxy;

beforeAll(async () => {
  // A real Vigil with a tight per-key rate limit: 2 requests of burst, then 2 per second.
  server = await startVigil({ env: { VIGIL_RATE_LIMIT_RPS: '2', VIGIL_RATE_LIMIT_BURST: '2' } });
  recorder = await startProxy({ target: server.url });
});

afterAll(async () => {
  await recorder?.close();
  await server?.stop();
});

describe("the real server's 429", () => {
  it('is honoured: sending pauses for Retry-After, trackAsync fails open without asking, and every event arrives', async () => {
    const { client, errors } = collectingClient(recorder.url, server.writeKey, { maxBatchSize: 1, flushInterval: 0, minRetryDelay: 1 });

    // Spend the burst until Vigil refuses: trackAsync fails open with the 429 and learns the pause.
    const asked: string[] = [];
    let refused;
    for (let i = 0; i < 20 && refused === undefined; i++) {
      asked.push(`rl-async-${i}`);
      const insights = await client.trackAsync('login', { event_id: `rl-async-${i}` });
      if (insights.failOpen) refused = insights;
    }
    expect(refused?.error).toMatchObject({ code: 'http', status: 429 });

    // During the pause, no request is made: the answer is the fail-open result at once.
    const seen = recorder.exchanges.length;
    const during = await client.trackAsync('login', { event_id: 'rl-during' });
    expect(during.failOpen).toBe(true);
    expect(during.error?.code).toBe('rate_limited');
    expect(recorder.exchanges.length).toBe(seen);

    // Batches wait out each Retry-After; the refused and skipped events were queued, so all arrive.
    for (let i = 0; i < 6; i++) client.track('view', { event_id: `rl-${i}` });
    await client.flush();
    const stored = new Set([
      ...recorder.exchanges.filter((x) => x.path === '/events' && x.status === 200).map((x) => x.body.properties.event_id),
      ...deliveredBatchItems(recorder.exchanges)
        .filter((x) => x.result.status === 200)
        .map((x) => x.event.properties.event_id),
    ]);
    expect([...stored].sort()).toEqual([...asked, 'rl-during', 'rl-0', 'rl-1', 'rl-2', 'rl-3', 'rl-4', 'rl-5'].sort());
    expect(errors.map((e) => e.code)).toEqual(['http', 'rate_limited']);

    // No request followed a 429 sooner than its Retry-After said.
    const all = recorder.exchanges;
    all.forEach((x, i) => {
      const next = all[i + 1];
      if (x.status !== 429 || next === undefined) return;
      const retryAfterMs = Number(x.responseHeaders['retry-after']) * 1000;
      expect(retryAfterMs).toBeGreaterThan(0);
      expect(next.receivedAt - x.answeredAt).toBeGreaterThanOrEqual(retryAfterMs - 10);
    });
    await client.close();
  });
});
