import { describe, expect, it, vi } from 'vitest';
import { listenOrRetry } from './listen.js';

const FAST = { firstMs: 1, maxMs: 4 };

/** A `listen` that refuses its first `failures` calls, then subscribes; what happened is logged in `events`. */
function flakyListen(failures: number, events: string[]) {
  let calls = 0;
  const listen = async () => {
    calls++;
    if (calls <= failures) throw new Error(`refused ${calls}`);
    events.push('subscribed');
    return async () => void events.push('unsubscribed');
  };
  return { listen, calls: () => calls };
}

const callbacks = (events: string[]) => [() => {}, (error: Error) => void events.push(`lost: ${error.message}`), () => void events.push('restored')] as const;

describe('listenOrRetry', () => {
  it('hands back a subscription made at once, and reports nothing', async () => {
    const events: string[] = [];
    const { listen } = flakyListen(0, events);
    const stop = await listenOrRetry(listen, 'ch', ...callbacks(events), FAST);
    await stop();
    expect(events).toEqual(['subscribed', 'unsubscribed']);
  });

  it('reports a first subscription that fails as a lost channel, retries it, and reports it restored once made', async () => {
    const events: string[] = [];
    const flaky = flakyListen(3, events);
    const stop = await listenOrRetry(flaky.listen, 'ch', ...callbacks(events), FAST);
    expect(events).toEqual(['lost: refused 1']);
    await vi.waitFor(() => expect(events).toContain('restored'));
    // The retries' failures are not reported again: the channel is down until it is restored.
    expect(events).toEqual(['lost: refused 1', 'subscribed', 'restored']);
    expect(flaky.calls()).toBe(4);
    await stop();
    expect(events.at(-1)).toBe('unsubscribed');
  });

  it('ends a subscription an attempt makes after being stopped, before the stop returns', async () => {
    const events: string[] = [];
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let calls = 0;
    const listen = async () => {
      if (++calls === 1) throw new Error('refused');
      await gate;
      events.push('subscribed');
      return async () => void events.push('unsubscribed');
    };
    const stop = await listenOrRetry(listen, 'ch', ...callbacks(events), FAST);
    await vi.waitFor(() => expect(calls).toBe(2));
    const stopping = stop();
    open();
    await stopping;
    expect(events).toEqual(['lost: refused', 'subscribed', 'unsubscribed']);
  });

  it('stops retrying once stopped', async () => {
    const events: string[] = [];
    const flaky = flakyListen(Number.POSITIVE_INFINITY, events);
    const stop = await listenOrRetry(flaky.listen, 'ch', ...callbacks(events), FAST);
    await vi.waitFor(() => expect(flaky.calls()).toBeGreaterThan(2));
    await stop();
    const calls = flaky.calls();
    await new Promise((r) => setTimeout(r, 30));
    expect(flaky.calls()).toBe(calls);
    expect(events).toEqual(['lost: refused 1']);
  });
});
