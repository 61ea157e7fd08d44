import { join } from 'node:path';
import { types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { faultKind } from './faults.js';
import { PgliteGuard } from './pglite-guard.js';
import { FlushCounter, PgliteThread, PgliteThreadLost } from './pglite-thread.js';

describe('PGlite on its own thread', () => {
  let database: TestDatabase;
  let dir: string;
  let threads: PgliteThread[];
  let guard: PgliteGuard;
  const limits = { stuckAfterMs: 0 };
  // Shared by every thread opened on the data directory, as the database handle shares it (open.ts).
  const flushed = new FlushCounter();
  // And one observer of their garbage collections.
  const gcs: [kind: string, seconds: number][] = [];
  const open = async () => {
    const thread = await PgliteThread.open(join(dir, 'pgdata'), limits, true, flushed, (kind, seconds) => gcs.push([kind, seconds]));
    threads.push(thread);
    return thread;
  };

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    dir = database.env.VIGIL_DATA_DIR!;
    threads = [];
    guard = new PgliteGuard(await open(), { dataDir: dir, minFreeBytes: 0, reopen: open });
    await guard.exec('CREATE TABLE t (id int PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), doc jsonb)');
  }, 120_000);
  afterAll(async () => {
    await guard?.close();
    await database?.drop();
  });

  it('answers queries with parameters, in both row modes, keeping the types drizzle keeps as text', async () => {
    const doc = { a: [1, 'x'], b: null };
    await guard.query('INSERT INTO t (id, doc) VALUES ($1, $2)', [1, doc]);
    const objects = await guard.query<{ id: number; doc: unknown; at: unknown }>('SELECT id, doc, at FROM t WHERE id = $1', [1]);
    expect(objects.rows).toEqual([{ id: 1, doc, at: expect.any(Date) }]);
    const arrays = await guard.query('SELECT id, at FROM t', [], { rowMode: 'array', parsers: { [types.TIMESTAMPTZ]: (v) => v } });
    expect(arrays.rows).toEqual([[1, expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/)]]);
    expect(arrays.fields.map((f) => f.name)).toEqual(['id', 'at']);
    const bytes = await guard.query<{ b: Uint8Array }>('SELECT $1::bytea AS b', [new Uint8Array([1, 2, 3])]);
    expect([...bytes.rows[0]!.b]).toEqual([1, 2, 3]);
  });

  it('runs named prepared statements: parsed once, then run again with new parameters, in and out of transactions', async () => {
    const raw = { rowMode: 'object' as const, parsers: { [types.TIMESTAMPTZ]: (v: unknown) => v } };
    const text = 'SELECT id, doc, at, $2::int8 AS big FROM t WHERE id = $1';
    const first = await guard.prepared<{ id: number; doc: unknown; at: unknown; big: unknown }>('vigil_test_a', text, [1, 10], raw);
    expect(first.rows).toEqual([{ id: 1, doc: { a: [1, 'x'], b: null }, at: expect.stringMatching(/^\d{4}-/), big: 10 }]);
    // Run more times than PostgreSQL's custom plans (5), so the generic plan answers too.
    for (let n = 0; n < 8; n++) expect((await guard.prepared('vigil_test_a', text, [n === 7 ? 1 : 99, n], raw)).rows).toHaveLength(n === 7 ? 1 : 0);
    await guard.exec('CREATE TABLE p (id int PRIMARY KEY, doc jsonb)');
    const write = "INSERT INTO p (id, doc) SELECT (d->>'id')::int, d FROM jsonb_array_elements($1::jsonb) AS d RETURNING id";
    const written = await guard.transaction(
      async (tx) => (await tx.prepared<{ id: number }>('vigil_test_b', write, [JSON.stringify([{ id: 40 }, { id: 41 }])], raw)).rows,
    );
    expect(written).toEqual([{ id: 40 }, { id: 41 }]);
    // A statement prepared in a transaction that rolls back stays prepared, as PostgreSQL keeps it.
    await expect(
      guard.transaction(async (tx) => {
        await tx.prepared('vigil_test_b', write, [JSON.stringify([{ id: 42 }])], raw);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await guard.prepared('vigil_test_b', write, [JSON.stringify([{ id: 43 }])], raw)).rows).toEqual([{ id: 43 }]);
    expect((await guard.query<{ n: number }>('SELECT count(*)::int AS n FROM p')).rows[0]!.n).toBe(3);
  });

  it('binds parameters of any size and script, empty and null, from one buffer reused call after call', async () => {
    // The thread writes each Bind into one buffer it keeps: a call larger than the buffer grows it, and a smaller
    // call after a larger one must send only its own bytes.
    const text = 'SELECT $1::text AS a, $2::text AS b, $3::text AS c, length($1)::int AS n';
    const big = 'é€😀x'.repeat(30_000);
    const calls: [string | null, string | null, string | null][] = [
      ['short', null, ''],
      [big, 'ü', null],
      ['😀', '', 'tail'],
      [null, null, null],
    ];
    for (const params of calls) {
      for (const run of [
        () => guard.prepared<Record<string, unknown>>('vigil_test_bind', text, params),
        () => guard.query<Record<string, unknown>>(text, params),
      ]) {
        const [row] = (await run()).rows;
        expect(row).toEqual({ a: params[0], b: params[1], c: params[2], n: params[0] === null ? null : [...params[0]].length });
      }
    }
  });

  it("parses every answer with its own call's types kept as text, whichever call came before", async () => {
    // The thread keeps one merged table of parsers per set of raw types: a call must never get another set's.
    const text = 'SELECT at, 7::int8 AS big FROM t WHERE id = $1';
    const rawAt = { rowMode: 'object' as const, parsers: { [types.TIMESTAMPTZ]: (v: unknown) => v } };
    const rawBig = { rowMode: 'array' as const, parsers: { [types.INT8]: (v: unknown) => v } };
    const at = expect.stringMatching(/^\d{4}-/);
    const ways = {
      prepared: (options?: typeof rawAt | typeof rawBig) => guard.prepared('vigil_test_types', text, [1], options),
      query: (options?: typeof rawAt | typeof rawBig) => guard.query(text, [1], options),
      // Two statements in one simple query: exec answers each.
      exec: async (options?: typeof rawAt | typeof rawBig) => {
        const [first, second] = await guard.exec(`${text.replace('$1', '1')}; SELECT 8::int8 AS big`, options);
        expect(second!.rows).toEqual(options === rawBig ? [['8']] : [{ big: 8 }]);
        return first!;
      },
    };
    for (let round = 0; round < 2; round++) {
      for (const run of Object.values(ways)) {
        expect((await run(rawAt)).rows).toEqual([{ at, big: 7 }]);
        expect((await run(rawBig)).rows).toEqual([[expect.any(Date), '7']]);
        expect((await run()).rows).toEqual([{ at: expect.any(Date), big: 7 }]);
      }
    }
  });

  it('answers a failed prepared statement with its error fields, and goes on working', async () => {
    const conflict = await guard.prepared('vigil_test_c', 'INSERT INTO p (id) VALUES ($1)', [40]).catch((e: unknown) => e);
    expect(conflict).toMatchObject({ code: '23505', constraint: 'p_pkey' });
    expect((await guard.prepared('vigil_test_c', 'INSERT INTO p (id) VALUES ($1)', [50])).affectedRows).toBe(1);
    const syntax = await guard.prepared('vigil_test_d', 'SELEC 1', []).catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601' });
    // Not kept: the same name with a statement that parses works.
    expect((await guard.prepared<{ one: number }>('vigil_test_d', 'SELECT 1 AS one', [])).rows).toEqual([{ one: 1 }]);
    expect((await guard.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it("brings PostgreSQL's error fields across, for the error mapping", async () => {
    const error = await guard.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey', message: expect.stringContaining('duplicate key') });
  });

  it('runs a transaction alone, and rolls it back when it throws', async () => {
    let outside = false;
    const failed = guard.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (2)');
      // Posted during the transaction: it must wait for the rollback, never run inside the transaction.
      void guard.query('SELECT count(*)::int AS n FROM t').then(() => (outside = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(outside).toBe(false);
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    const { rows } = await guard.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 2');
    expect(rows[0]!.n).toBe(0);
    expect(outside).toBe(true);
    await guard.transaction(async (tx) => void (await tx.query('INSERT INTO t (id) VALUES (3)')));
    expect((await guard.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 3')).rows[0]!.n).toBe(1);
  });

  it('delivers notifications to a listener until it unlistens', async () => {
    const got: string[] = [];
    const unlisten = await guard.listen('news', (payload) => got.push(payload));
    await guard.exec("NOTIFY news, 'one'");
    await expect.poll(() => got).toEqual(['one']);
    // Also from a named prepared statement, which reaches PGlite by its protocol messages, not query().
    await guard.prepared('vigil_test_notify', 'SELECT pg_notify($1, $2)', ['news', 'prepared']);
    await expect.poll(() => got).toEqual(['one', 'prepared']);
    await unlisten();
    await guard.exec("NOTIFY news, 'two'");
    await guard.query('SELECT 1');
    expect(got).toEqual(['one', 'prepared']);
  });

  it('flushes each commit to the disk before answering it, and what a checkpoint wrote, when asked to sync', async () => {
    const settings = await guard.query("SELECT current_setting('fsync') AS fsync, current_setting('wal_sync_method') AS method");
    expect(settings.rows).toEqual([{ fsync: 'on', method: 'fsync' }]);
    const before = flushed.fsyncs;
    const timedBefore = flushed.walFlushSeconds;
    flushed.takeLongestWalFlush();
    for (const id of [20, 21, 22]) await guard.query('INSERT INTO t (id) VALUES ($1)', [id]);
    const committed = flushed.fsyncs;
    expect(committed - before).toBeGreaterThanOrEqual(3);
    // Each flush is timed: the longest is part of the time in all.
    const longest = flushed.takeLongestWalFlush();
    expect(longest).toBeGreaterThan(0);
    expect(flushed.walFlushSeconds - timedBefore).toBeGreaterThanOrEqual(longest);
    // Data files and their directories, which PostgreSQL flushes at a checkpoint.
    await guard.exec('CHECKPOINT');
    expect(flushed.fsyncs).toBeGreaterThan(committed);
    await guard.query('DELETE FROM t WHERE id >= 20');
  });

  it('flushes the data files PostgreSQL wrote in the background, a second at a time, so no burst of them is left', async () => {
    // A relation that grows writes its new blocks to its data file at once, which PostgreSQL flushes only at a
    // checkpoint.
    const before = flushed.background;
    await guard.exec("CREATE TABLE grows (doc text); INSERT INTO grows SELECT repeat('x', 1000) FROM generate_series(1, 2000)");
    await expect.poll(() => flushed.background, { timeout: 5000 }).toBeGreaterThan(before);
    await guard.exec('DROP TABLE grows');
  });

  it("tells of its thread's garbage collections, which the main thread's metrics cannot see", async () => {
    const before = gcs.length;
    // Rows parsed in the thread's heap: 30 MB of strings, so its young generation is collected.
    for (let i = 0; i < 30; i++) await guard.query("SELECT repeat('x', 100000) AS s FROM generate_series(1, 10)");
    await expect.poll(() => gcs.length, { timeout: 5000 }).toBeGreaterThan(before);
    expect(gcs.some(([kind]) => kind === 'minor')).toBe(true);
    for (const [kind, seconds] of gcs) {
      expect(['minor', 'major', 'incremental', 'weakcb']).toContain(kind);
      expect(seconds).toBeGreaterThanOrEqual(0);
      expect(seconds).toBeLessThan(5);
    }
  });

  it('makes a new WAL segment without writing it full of zeros first, which held every statement for 40-50 ms', async () => {
    expect((await guard.query("SELECT current_setting('wal_init_zero') AS zero")).rows).toEqual([{ zero: 'off' }]);
  });

  it('flushes a new data directory whole once PGlite has made it, which PostgreSQL never would, and only then', async () => {
    // PGlite copies a new database out of memory and starts PostgreSQL on it as cleanly shut down.
    const made = await PgliteThread.open(join(dir, 'pgdata-2'), limits, true);
    expect(made.created).toBeGreaterThan(100);
    await made.close();
    const reopened = await PgliteThread.open(join(dir, 'pgdata-2'), limits, true);
    expect(reopened.created).toBe(0);
    await reopened.close();
  });

  it("leaves the flushing to the operating system without sync, as PGlite's own default does", async () => {
    const unsynced = new FlushCounter();
    const thread = await PgliteThread.open(join(dir, 'unsynced'), limits, false, unsynced);
    try {
      expect(thread.created).toBe(0);
      expect((await thread.query("SELECT current_setting('fsync') AS fsync")).rows).toEqual([{ fsync: 'off' }]);
      await thread.exec("CREATE TABLE u (doc text); INSERT INTO u SELECT repeat('x', 1000) FROM generate_series(1, 2000); CHECKPOINT");
      expect(unsynced.fsyncs).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(unsynced.background).toBe(0);
      expect((await thread.query("SELECT current_setting('wal_init_zero') AS zero")).rows).toEqual([{ zero: 'off' }]);
    } finally {
      await thread.close();
    }
  });

  it('answers a dead thread as a lost connection, and starts a new one on the next probe', async () => {
    const got: string[] = [];
    await guard.listen('after', (payload) => got.push(payload));
    await threads.at(-1)!.terminate();
    const error = await guard.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PgliteThreadLost);
    expect(faultKind(error)).toBe('connection');
    // Refused by the guard until the probe has restarted it, without sending anything to the dead thread.
    expect(faultKind(await guard.query('SELECT 1').catch((e: unknown) => e))).toBe('connection');
    await guard.probe();
    expect((await guard.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n).toBe(2);
    // The subscription lives on in the new thread.
    await guard.exec("NOTIFY after, 'again'");
    await expect.poll(() => got).toEqual(['again']);
  });

  it('ends a thread whose statement does not answer in time, and starts a new one on the next probe', async () => {
    limits.stuckAfterMs = 1000;
    try {
      const error = await guard.query('SELECT pg_sleep(30)').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PgliteThreadLost);
      expect((error as Error).message).toMatch(/did not answer within 1 s/);
    } finally {
      limits.stuckAfterMs = 0;
    }
    await guard.probe();
    expect((await guard.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n).toBe(2);
  });
});
