import { describe, expect, it } from 'vitest';
import { LiveSubscription } from './subscription.js';

describe('LiveSubscription', () => {
  it('hands pushed values to the reader in order, also to one already waiting', async () => {
    const sub = new LiveSubscription<number>(
      10,
      () => {},
      () => {},
    );
    const waiting = sub.next();
    sub.push(1);
    sub.push(2);
    sub.push(3);
    expect(await waiting).toEqual({ value: 1, done: false });
    expect(await sub.next()).toEqual({ value: 2, done: false });
    expect(await sub.next()).toEqual({ value: 3, done: false });
  });

  it('ends a subscriber that falls more than maxQueue behind, and says so once', async () => {
    const slow: string[] = [];
    let ended = 0;
    const sub = new LiveSubscription<number>(
      3,
      () => ended++,
      (message) => slow.push(message),
    );
    for (let i = 0; i < 10; i++) sub.push(i);
    expect(slow).toEqual(['Slow consumer: more than 3 events waiting (VIGIL_LIVE_MAX_QUEUE)']);
    expect(ended).toBe(1);
    expect(await sub.next()).toEqual({ value: undefined, done: true });
  });

  it('ends a waiting reader when the subscription is returned', async () => {
    let ended = 0;
    const sub = new LiveSubscription<number>(
      3,
      () => ended++,
      () => {},
    );
    const waiting = sub.next();
    await sub.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    sub.push(1);
    expect(await sub.next()).toEqual({ value: undefined, done: true });
    expect(ended).toBe(1);
  });
});
