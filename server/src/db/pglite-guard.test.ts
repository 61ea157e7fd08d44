import { tmpdir } from 'node:os';
import type { Results } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { DatabaseFault, unavailableError } from './faults.js';
import { PgliteGuard, SPACE_HEADROOM_BYTES, SPACE_RECHECK_MS } from './pglite-guard.js';
import type { PgliteConnection } from './pglite-thread.js';

/** What PGlite does once PostgreSQL PANICked: the failing command is answered with the PANIC, later ones never. */
function panicking(panic: Error, asked: string[]): PgliteConnection {
  let dead = false;
  const run = (text: string) => {
    asked.push(text);
    if (dead) return new Promise<never>(() => {});
    dead = true;
    return Promise.reject(panic);
  };
  return {
    query: (text) => run(text),
    exec: (text) => run(text),
    listen: async () => async () => {},
    close: async () => void asked.push('close'),
  };
}

function healthy(asked: string[]): PgliteConnection {
  const answer = (text: string) => (asked.push(text), Promise.resolve({ rows: [{ ok: 1 }], fields: [] } as unknown as Results<never>));
  return {
    query: (text) => answer(text),
    exec: async (text) => [await answer(text)],
    listen: async () => async () => {},
    close: async () => {},
  };
}

describe('PgliteGuard after a PANIC', () => {
  it('sends the stopped instance nothing more, answers 503 until a probe opens a new one, then works on that one', async () => {
    // A flush to the disk that failed with an I/O error: PostgreSQL PANICs (58030, not a full disk).
    const panic = Object.assign(new Error('could not fsync file "pg_wal/000000010000000000000001": Input/output error'), {
      severity: 'PANIC',
      code: '58030',
    });
    const old: string[] = [];
    const fresh: string[] = [];
    const guard = new PgliteGuard(panicking(panic, old), { dataDir: tmpdir(), minFreeBytes: 0, reopen: async () => healthy(fresh) });

    const first = await guard.query('INSERT 1').catch((error: unknown) => error);
    expect(first).toBe(panic);
    expect(unavailableError(first)?.status).toBe(503);

    // Refused at once: sent on, it would wait for the thread watchdog (a minute by default).
    const second = await guard.query('INSERT 2').catch((error: unknown) => error);
    expect(second).toBeInstanceOf(DatabaseFault);
    expect((second as DatabaseFault).kind).toBe('connection');
    expect(unavailableError(second)?.headers?.['Retry-After']).toBeDefined();
    expect(old).toEqual(['INSERT 1']);

    await guard.probe();
    expect(old).toEqual(['INSERT 1', 'close']);
    await guard.query('INSERT 3');
    expect(fresh).toEqual(['SELECT 1', 'INSERT 3']);
  });

  it('marks a transaction whose COMMIT PANICked broken, and does not send its stopped instance a ROLLBACK', async () => {
    // Not a full disk's 53100, which was handled before PANICs were: an I/O error's.
    const panic = Object.assign(new Error('could not fsync file "pg_wal/000000010000000000000001": Input/output error'), {
      severity: 'PANIC',
      code: '58030',
    });
    const asked: string[] = [];
    let commands = 0;
    const inner: PgliteConnection = {
      ...healthy(asked),
      exec: (text) => (asked.push(text), ++commands === 2 ? Promise.reject(panic) : Promise.resolve([])),
    };
    const guard = new PgliteGuard(inner, { dataDir: tmpdir(), minFreeBytes: 0, reopen: async () => healthy([]) });
    await expect(guard.transaction(async () => 'done')).rejects.toBe(panic);
    expect(asked).toEqual(['BEGIN', 'COMMIT']);
    await expect(guard.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseFault);
  });
});

describe('PgliteGuard measuring free space', () => {
  const MIN = 64 * 1024 * 1024;
  function measured(free: number) {
    const clock = { now: 0 };
    const calls = { statfs: 0 };
    const asked: string[] = [];
    const guard = new PgliteGuard(healthy(asked), {
      dataDir: tmpdir(),
      minFreeBytes: MIN,
      reopen: async () => healthy([]),
      freeBytes: () => (calls.statfs++, free),
      now: () => clock.now,
    });
    return { guard, clock, calls, asked };
  }

  it('trusts a measurement with a gigabyte to spare for a tenth of a second, then measures again', async () => {
    const { guard, clock, calls } = measured(MIN + SPACE_HEADROOM_BYTES);
    await guard.query('INSERT 1');
    clock.now = SPACE_RECHECK_MS - 1;
    await guard.query('INSERT 2');
    expect(calls.statfs).toBe(1);
    clock.now = SPACE_RECHECK_MS;
    await guard.query('INSERT 3');
    expect(calls.statfs).toBe(2);
  });

  it('measures before every piece of work when less than that is to spare', async () => {
    const { guard, calls } = measured(MIN + SPACE_HEADROOM_BYTES - 1);
    await guard.query('INSERT 1');
    await guard.query('INSERT 2');
    expect(calls.statfs).toBe(2);
  });

  it('refuses work below the minimum, and a probe always measures', async () => {
    const { guard, calls, asked } = measured(MIN - 1);
    await expect(guard.query('INSERT 1')).rejects.toMatchObject({ kind: 'disk_full' });
    await expect(guard.probe()).rejects.toMatchObject({ kind: 'disk_full' });
    expect(calls.statfs).toBe(2);
    expect(asked).toEqual([]);
  });
});
