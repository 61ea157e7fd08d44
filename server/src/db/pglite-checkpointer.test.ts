import { describe, expect, it } from 'vitest';
import { type CheckpointTarget, PgliteCheckpointer, checkpointCause } from './pglite-checkpointer.js';

const GB = 1024 ** 3;
const idle = { wal: 200, at: '0/16EF9D0', max_wal: GB, age: 10, timeout: 300 };

describe('checkpointCause', () => {
  it('asks for a checkpoint once the WAL since the last one reaches half of max_wal_size', () => {
    expect(checkpointCause({ ...idle, wal: GB / 2 - 1 })).toBeUndefined();
    expect(checkpointCause({ ...idle, wal: GB / 2 })).toBe('wal');
  });

  it('asks for one after checkpoint_timeout only if something was written since the last', () => {
    expect(checkpointCause({ ...idle, age: 299, wal: 1e6 })).toBeUndefined();
    expect(checkpointCause({ ...idle, age: 300, wal: 1e6 })).toBe('time');
    // The last checkpoint's own records, and nothing else.
    expect(checkpointCause({ ...idle, age: 3600, wal: 200 })).toBeUndefined();
  });

  it('asks for one in a lull, nothing written since the last measurement, once the WAL is a sixteenth of max_wal_size', () => {
    const quiet = { ...idle, wal: GB / 16 };
    expect(checkpointCause(quiet, quiet.at)).toBe('lull');
    // Something was written since, or there was no measurement since the last checkpoint to compare with.
    expect(checkpointCause(quiet, '0/16EF900')).toBeUndefined();
    expect(checkpointCause(quiet)).toBeUndefined();
    expect(checkpointCause({ ...quiet, wal: GB / 16 - 1 }, quiet.at)).toBeUndefined();
  });
});

/** A database that answers the measurement with `state` and records what it was sent. */
function fakeDatabase(state: typeof idle) {
  const sent: string[] = [];
  let release: () => void = () => {};
  const target: CheckpointTarget & { sent: string[]; hold: boolean; release(): void; failWith?: Error } = {
    sent,
    hold: false,
    release: () => release(),
    async query<T>(text: string) {
      sent.push('measure');
      if (target.failWith) throw target.failWith;
      return { rows: [{ ...state, text } as unknown as T] };
    },
    async exec(text: string) {
      sent.push(text);
      if (target.hold) await new Promise<void>((resolve) => (release = resolve));
    },
  };
  return target;
}

describe('PgliteCheckpointer', () => {
  it('runs a checkpoint when a measurement calls for one, and counts it by cause with the time it took', async () => {
    const db = fakeDatabase({ ...idle, wal: GB });
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 60_000 });
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure', 'CHECKPOINT']);
    expect(checkpointer.counts).toMatchObject({ wal: 1, time: 0 });
    expect(checkpointer.counts.seconds).toBeGreaterThanOrEqual(0);
  });

  it('sends nothing more when the measurement calls for none', async () => {
    const db = fakeDatabase(idle);
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 60_000 });
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure']);
    expect(checkpointer.counts).toEqual({ wal: 0, time: 0, lull: 0, seconds: 0, failed: 0 });
  });

  it('measures again only once a checkpoint under way has ended, and stop() waits for it', async () => {
    const db = fakeDatabase({ ...idle, age: 900, wal: 1e6 });
    db.hold = true;
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 60_000 });
    const first = checkpointer.tick();
    await expect.poll(() => db.sent).toEqual(['measure', 'CHECKPOINT']);
    void checkpointer.tick();
    expect(db.sent).toEqual(['measure', 'CHECKPOINT']);
    let stopped = false;
    const stopping = checkpointer.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    db.release();
    await Promise.all([first, stopping]);
    expect(checkpointer.counts.time).toBe(1);
  });

  it('takes a checkpoint in a lull at the second measurement that finds the WAL where the first left it', async () => {
    const db = fakeDatabase({ ...idle, wal: GB / 8 });
    let now = 0;
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 1000, now: () => now });
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure']);
    // A measurement that waited behind a slow statement can come soon after the last: too soon to call it a lull.
    now += 499;
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure', 'measure']);
    now += 500;
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure', 'measure', 'measure', 'CHECKPOINT']);
    // A checkpoint starts the comparison over: the next measurement has none before it to compare with.
    now += 1000;
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure', 'measure', 'measure', 'CHECKPOINT', 'measure']);
    expect(checkpointer.counts).toMatchObject({ wal: 0, time: 0, lull: 1 });
  });

  it('starts the comparison over after a failed measurement: the database may have been opened again since', async () => {
    const db = fakeDatabase({ ...idle, wal: GB / 8 });
    let now = 0;
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 1000, now: () => now });
    await checkpointer.tick();
    db.failWith = new Error('the database system is in recovery mode');
    now += 1000;
    await checkpointer.tick();
    db.failWith = undefined;
    now += 1000;
    await checkpointer.tick();
    expect(checkpointer.counts).toMatchObject({ lull: 0, failed: 1 });
    now += 1000;
    await checkpointer.tick();
    expect(checkpointer.counts).toMatchObject({ lull: 1, failed: 1 });
  });

  it('lets a failure pass (the database is down or full; the guard answers 503) and tries again at the next', async () => {
    const db = fakeDatabase({ ...idle, wal: GB });
    db.failWith = Object.assign(new Error('the database system is in recovery mode'), { code: '57P03' });
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 60_000 });
    await expect(checkpointer.tick()).resolves.toBeUndefined();
    expect(checkpointer.counts.failed).toBe(1);
    db.failWith = undefined;
    await checkpointer.tick();
    expect(db.sent).toEqual(['measure', 'measure', 'CHECKPOINT']);
    expect(checkpointer.counts.wal).toBe(1);
  });

  it('measures on its own every everyMs once started, and no more once stopped', async () => {
    const db = fakeDatabase(idle);
    const checkpointer = new PgliteCheckpointer(db, { everyMs: 10 });
    checkpointer.start();
    await expect.poll(() => db.sent.length).toBeGreaterThanOrEqual(2);
    await checkpointer.stop();
    const measured = db.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.sent.length).toBe(measured);
  });
});
