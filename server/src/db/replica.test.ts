import { describe, expect, it } from 'vitest';
import { VigilError } from '../errors.js';
import { ReplicaMonitor } from './replica.js';

/** A primary whose WAL position and a replica whose replayed position the test moves by hand, on a fake clock. */
function servers() {
  const s = { now: 0, primary: '0/100', replayed: '0/100' as string | null, replicaDown: false };
  const monitor = new ReplicaMonitor({
    primaryPosition: async () => s.primary,
    replicaPosition: async () => {
      if (s.replicaDown) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return s.replayed;
    },
    maxLagMs: 5000,
    now: () => s.now,
  });
  return { s, monitor };
}

describe('ReplicaMonitor', () => {
  it('counts a quiet primary as no lag, however long since its last write', async () => {
    const { s, monitor } = servers();
    for (let t = 0; t < 60_000; t += 1000) {
      s.now = t;
      await monitor.check();
    }
    expect(monitor.state).toEqual({ status: 'ready', lagSeconds: 0 });
  });

  it('measures lag from the oldest primary position not replayed, and refuses reads past the limit', async () => {
    const { s, monitor } = servers();
    await monitor.check();
    s.primary = '0/200';
    s.now = 1000;
    await monitor.check(); // recorded at 1 s, not replayed
    s.primary = '1/0';
    for (let t = 2000; t <= 7000; t += 1000) {
      s.now = t;
      await monitor.check();
    }
    expect(monitor.state).toEqual({ status: 'lagging', lagSeconds: 6 });
    expect(() => monitor.assertUsable()).toThrow(/6 s behind the primary \(more than VIGIL_REPLICA_MAX_LAG_SECONDS=5\)/);
    // Replayed past 0/200 but not 1/0 (recorded from 2 s on): 5 s behind, within the limit.
    s.replayed = '0/FFFFFFFF';
    await monitor.check();
    expect(monitor.state).toEqual({ status: 'ready', lagSeconds: 5 });
    s.replayed = '1/0';
    await monitor.check();
    expect(monitor.state.lagSeconds).toBe(0);
  });

  it('says unreachable while the replica does not answer, with a 503 that is not a fault of the primary', async () => {
    const { s, monitor } = servers();
    s.replicaDown = true;
    await monitor.check();
    expect(monitor.state).toEqual({ status: 'unreachable', lagSeconds: null });
    let refusal: unknown;
    try {
      monitor.assertUsable();
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(VigilError);
    expect((refusal as VigilError).code).toBe('unavailable');
    s.replicaDown = false;
    await monitor.check();
    expect(monitor.state.status).toBe('ready');
    // A read that meets a lost connection marks it unreachable at once, until the next round.
    expect(monitor.failure(Object.assign(new Error('Connection terminated unexpectedly'), {}))?.code).toBe('unavailable');
    expect(monitor.state.status).toBe('unreachable');
    expect(monitor.failure(new Error('syntax error'))).toBeUndefined();
  });

  it('treats a server that is not a standby as caught up', async () => {
    const { s, monitor } = servers();
    s.replayed = null;
    s.primary = '5/0';
    await monitor.check();
    expect(monitor.state).toEqual({ status: 'ready', lagSeconds: 0 });
  });
});
