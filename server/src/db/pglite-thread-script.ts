/**
 * The source of the embedded database's thread (see pglite-thread.ts), run with `new Worker(source, { eval: true })`.
 * A string rather than a module file, so the same code runs from `dist/` and under vitest (which runs `src/*.ts`,
 * where no `.js` beside this file exists to point a Worker at, and whose transform of a function's text would not
 * survive `toString()`).
 *
 * Protocol, one message each way per call: `{ id, op, ... }` in, `{ id, value }` or `{ id, error }` out, in
 * arrival order; `{ notify, payload }` out for a LISTEN subscription; `{ gc: [[kind, seconds], …] }` out for the
 * thread's own garbage collections. An error travels as its message, name and
 * primitive own fields (PostgreSQL's `code`, `detail`, `constraint`…), which is what the fault mapping reads.
 */
export const PGLITE_THREAD_SOURCE = `
'use strict';
const { parentPort, workerData, Worker } = require('node:worker_threads');
let pg;
// PGlite's protocol serializer and result parser, for named prepared statements: set when PGlite is opened.
let serialize, parseResults;
// Loaded while the caller compiles PGlite's WebAssembly, before the first message asks for it.
const loading = Promise.all([import(workerData.pglite), import(workerData.nodefs)]);
loading.catch(() => {});
// PostgreSQL's fsync() calls flushed to the disk, and the background flushes of data files (writingBack), counted in
// memory the caller shares (FlushCounter), so the counts go on across the threads one database opens and are read
// without a message.
const flushed = new BigInt64Array(workerData.flushed);
// PGlite starts PostgreSQL with fsync off (-F), and its Node file system (Emscripten's NODEFS) has no fsync at all:
// a commit reaches the operating system, not the disk, so a crash of the machine can lose answered events and tear
// the data directory. With \`sync\`, PostgreSQL runs with fsync on, and NODEFS gets the fsync that PostgreSQL's
// fsync() calls then reach: the WAL at each commit (wal_sync_method=fsync: Emscripten's fdatasync does nothing),
// data files and directories at checkpoints (NODEFS opens a descriptor for a directory too). Installed before
// PostgreSQL starts, so a recovery's flushes are real too. A failed flush is an I/O error to PostgreSQL, which
// PANICs: the statement fails with the PANIC and nothing more is answered (measured on a disk whose flushes fail,
// pglite-failed-flush.integration.test.ts), so PgliteGuard sends that instance nothing more and opens a new one,
// which recovers from the WAL. A new data directory is made in memory and copied out without any of this: the caller
// flushes it (PgliteThread.open).
// PostgreSQL writes data files without flushing them until a checkpoint, and PGlite has no background writer to
// spread that out: the operating system then writes them in a burst once they are 30 s old (Linux's
// dirty_expire_centisecs), and a commit's WAL flush waits behind the burst (measured on ext4 at full speed: a
// 100-340 ms flush every 30 s, where commits take ~1 ms). So the data files written in each second are flushed by a
// thread of their own (FLUSHER), never PostgreSQL's, a second's writes at a time, each file by a descriptor opened
// for it: PostgreSQL's own descriptors still hear of a failed write-back (Linux tells each open file once). Once one
// of them failed (a file that would not open included, as PostgreSQL's checkpointer counts one), PostgreSQL's next
// flush of any file fails, a commit's of the WAL too: it PANICs at once, as it does when its checkpointer's flush
// fails, and never reaches a checkpoint that would drop the WAL that repairs the file. Before PostgreSQL flushes a
// data file itself (a checkpoint), the flushes under way end, so that a failure among them is not missed; a commit's
// flush of the WAL does not wait for them, and the WAL is never flushed there.
const WRITEBACK_EVERY_MS = 1000;
const FLUSHER = \`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const state = new Int32Array(workerData.state);
const flushed = new BigInt64Array(workerData.flushed);
const failed = () => {
  Atomics.store(state, 1, 1);
  Atomics.add(flushed, 2, 1n);
};
parentPort.on('message', (paths) => {
  try {
    for (const path of paths) {
      let fd;
      try {
        fd = fs.openSync(path, 'r');
        fs.fdatasyncSync(fd);
        Atomics.add(flushed, 1, 1n);
      } catch (error) {
        // A file dropped since it was written (a table dropped or truncated) has nothing left to flush.
        if (error.code !== 'ENOENT') failed();
      }
      try {
        if (fd !== undefined) fs.closeSync(fd);
      } catch {
        // The flush, done or failed, is counted; a descriptor that would not close loses nothing of it.
      }
    }
  } catch {
    failed();
  } finally {
    Atomics.store(state, 0, 0);
    Atomics.notify(state, 0);
  }
});
\`;
// The WAL's segments and their directory, which each commit or new segment flushes.
const wal = (stream) => /\\/pg_wal(\\/|$)/.test(String(stream.path));
const writingBack = (nodefs) => {
  // [0]: 1 while the flusher works through a second's files; [1]: 1 once one of them failed.
  const state = new Int32Array(new SharedArrayBuffer(8));
  const flusher = new Worker(FLUSHER, { eval: true, workerData: { state: state.buffer, flushed: workerData.flushed } });
  flusher.unref();
  const written = new Set();
  const write = nodefs.stream_ops.write;
  nodefs.stream_ops.write = function (stream, ...rest) {
    if (!wal(stream)) written.add(nodefs.realPath(stream.node));
    return write.call(this, stream, ...rest);
  };
  setInterval(() => {
    // A second's files at a time: none while the last are still being flushed (a slow disk), so they never pile up.
    if (written.size === 0 || Atomics.load(state, 0) !== 0) return;
    Atomics.store(state, 0, 1);
    flusher.postMessage([...written]);
    written.clear();
  }, WRITEBACK_EVERY_MS).unref();
  return {
    /** Before PostgreSQL flushes \`stream\`: a data file waits for the flushes under way; once one failed, every flush fails. */
    beforeFlush(stream) {
      // A minute without an end is a flusher that died or hangs: its flushes count as failed.
      for (let waited = 0; !wal(stream) && Atomics.load(state, 0) !== 0; waited++) {
        if (waited === 60) {
          Atomics.store(state, 1, 1);
          Atomics.add(flushed, 2, 1n);
          break;
        }
        Atomics.wait(state, 0, 1, 1000);
      }
      if (Atomics.load(state, 1) !== 0) throw Object.assign(new Error('a background flush of a data file failed'), { code: 'EIO' });
    },
  };
};
// How long each flush of the WAL held the thread: a commit's flush waits for the disk, and so does every statement
// queued behind it, so a slow disk shows here before it shows as slow commits. Data files are left out: a checkpoint
// flushes them, and is counted apart (pglite-checkpointer.ts), often in a lull where no commit waits.
const timed = (nanos) => {
  Atomics.add(flushed, 3, nanos);
  if (nanos >= 10000000n) Atomics.add(flushed, 4, 1n);
  for (let longest = Atomics.load(flushed, 5); nanos > longest; longest = Atomics.load(flushed, 5)) {
    if (Atomics.compareExchange(flushed, 5, longest, nanos) === longest) break;
  }
};
const flushing = (NodeFS) =>
  class extends NodeFS {
    async init(pg, opts) {
      const { emscriptenOpts } = await super.init(pg, opts);
      const install = (mod) => {
        const nodefs = mod.NODEFS;
        const fs = require('node:fs');
        const writeback = writingBack(nodefs);
        nodefs.stream_ops.fsync = (stream) => {
          nodefs.tryFSOperation(() => {
            writeback.beforeFlush(stream);
            const started = wal(stream) ? process.hrtime.bigint() : undefined;
            try {
              fs.fsyncSync(stream.nfd);
            } finally {
              // A failed flush after a long stall is the worst stall there is: timed too.
              if (started !== undefined) timed(process.hrtime.bigint() - started);
            }
          });
          Atomics.add(flushed, 0, 1n);
          return 0;
        };
      };
      return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun || []), install] } };
    }
  };
// A new WAL segment is made by writing 16 MB of zeros and flushing them, by default: 40-50 ms in which PGlite's one
// thread answers nothing, every few seconds under load (between checkpoints, which recycle old segments, every
// segment is new). Without, the segment is made at its full size at once and its blocks are allocated as WAL is
// written, which each commit's flush (fsync, not fdatasync) writes to the disk anyway. A full disk then fails a WAL
// write or its flush instead of the segment's making: a PANIC either way, which PgliteGuard answers.
const noZeroFill = ['-c', 'wal_init_zero=off'];
const unlisteners = new Map();
const serialized = (error) => {
  const out = { message: String((error && error.message) || error), name: error && error.name };
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
    }
  }
  return out;
};
// Parsers are functions, which cannot cross threads: the caller names the types to keep as PostgreSQL's text, and
// they get identity parsers here. PGlite's result parser copies its whole table of type parsers (~300) into a new
// object on every call whose options bring parsers of their own: 93 µs a call where it takes 4 without, and a group
// commit of one event makes one such call. So each set of raw types gets its merged table once, and the parser is
// handed that table with no parsers in the options. PGlite changes its own table only while it opens (array types)
// or on refreshArrayTypes, which is never called here; a thread opens one instance, before any table is made.
const mergedParsers = new Map();
const parsersFor = (o) => {
  if (!o || !o.rawTypes) return pg.parsers;
  const key = o.rawTypes.join(',');
  let merged = mergedParsers.get(key);
  if (merged === undefined) {
    merged = { ...pg.parsers, ...Object.fromEntries(o.rawTypes.map((type) => [type, (value) => value])) };
    mergedParsers.set(key, merged);
  }
  return merged;
};
// Named statements parsed on this instance: name → the types of their parameters (PostgreSQL's answer to Describe).
const statements = new Map();
// One call into PostgreSQL. PGlite's file system for Node (NodeFS) writes PostgreSQL's files as PostgreSQL writes them
// and has nothing to copy out after a call (its syncToFs does nothing): PGlite's syncToFs step, a mutex and a chain of
// promises around that nothing on every call, is skipped.
const call = (bytes) => pg.execProtocol(bytes, { syncToFs: false });
// Protocol messages in one call into PostgreSQL, which runs them all before it answers; a failure arrives as PGlite's
// DatabaseError once the whole call has run. Every call here ends with a Sync: an error makes PostgreSQL skip to the
// Sync, so the call always leaves it ready for the next statement.
const send = (...messages) => {
  let length = 0;
  for (const m of messages) length += m.length;
  const buffer = new Uint8Array(length);
  let at = 0;
  for (const m of messages) {
    buffer.set(m, at);
    at += m.length;
  }
  return call(buffer);
};
// A statement's Bind, Describe, Execute and Sync, written into one buffer kept for the thread's life. PGlite's protocol
// serializer allocates a new ArrayBuffer for every message, another each time a message outgrows it, and a copy when
// it ends one; with send()'s copy that is ~5 buffers the size of the parameters per group commit (a batch's rows as
// JSON). Memory outside the heap counts toward the thread's next full collection: at 1,000 events/s the thread made one
// every ~0.6 s (every ~3.5 s with this buffer), each holding PostgreSQL's one thread, and so every commit, 5-20 ms.
// PGlite reads its input within the call, and calls here are one at a time (each awaited, inside _runExclusiveQuery),
// so the buffer is free again once a call ends; it keeps the size of the largest statement bound. Every parameter is
// text (PGlite's serializers all return strings), so no format codes are sent, which means all text.
const encoder = new TextEncoder();
let bindBuffer = new Uint8Array(64 * 1024);
let bindView = new DataView(bindBuffer.buffer);
// Describe the unnamed portal ('D', 'P', ''), execute all of it ('E', '', 0 rows) and Sync ('S').
const BIND_TAIL = new Uint8Array([68, 0, 0, 0, 6, 80, 0, 69, 0, 0, 0, 9, 0, 0, 0, 0, 0, 83, 0, 0, 0, 4]);
const bound = (name, values) => {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  let room = 16 + name.length * 3 + BIND_TAIL.length;
  for (const value of values) room += 4 + (value === null ? 0 : value.length * 3);
  if (room > bindBuffer.length) {
    bindBuffer = new Uint8Array(Math.max(room, bindBuffer.length * 2));
    bindView = new DataView(bindBuffer.buffer);
  }
  const cstring = (at, text) => {
    const { written } = encoder.encodeInto(text, bindBuffer.subarray(at));
    bindBuffer[at + written] = 0;
    return at + written + 1;
  };
  bindBuffer[0] = 66; // 'B', then its length at 1
  let at = cstring(cstring(5, ''), name);
  bindView.setInt16(at, 0);
  bindView.setInt16(at + 2, values.length);
  at += 4;
  for (const value of values) {
    if (value === null) {
      bindView.setInt32(at, -1);
      at += 4;
      continue;
    }
    const { written } = encoder.encodeInto(value, bindBuffer.subarray(at + 4));
    bindView.setInt32(at, written);
    at += 4 + written;
  }
  bindView.setInt16(at, 0);
  at += 2;
  bindView.setInt32(1, at - 1);
  bindBuffer.set(BIND_TAIL, at);
  return call(bindBuffer.subarray(0, at + BIND_TAIL.length));
};
// One statement by the extended protocol, the messages PGlite's query() sends (the Bind and what follows it written by
// bound(), the rest by PGlite's serializer), but in two calls at most, where query() makes one call a message: each
// call into PGlite costs ~10 µs of JavaScript on either side of PostgreSQL, and a group commit is one statement. A
// named prepared statement, as node-postgres runs one, is parsed (and described) once per instance, then only bound
// and executed, so PostgreSQL plans it generically after a few runs instead of parsing and planning the text every
// time; the unnamed one ('') is parsed on every call, as query() does. Its parameters' types (Describe) are needed to
// serialize them, hence the first call.
const extended = ({ name, text, params = [], options }) =>
  pg._runExclusiveQuery(async () => {
    let types = name ? statements.get(name) : undefined;
    if (types === undefined) {
      const described = (await send(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync())).messages;
      types = described.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [];
      if (name) statements.set(name, types);
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[types[i]];
      return String(serializer ? serializer(value) : value);
    });
    const { messages } = await bound(name, values);
    return parseResults(messages, parsersFor(options), { rowMode: options?.rowMode })[0];
  });
const ops = {
  async open({ dataDir, modules, sync }) {
    const [{ PGlite, protocol, parse }, { NodeFS }] = await loading;
    ({ serialize } = protocol);
    ({ parseResults } = parse);
    const wasm = { pgliteWasmModule: modules.pglite, initdbWasmModule: modules.initdb };
    pg = sync
      ? await PGlite.create({
          ...wasm,
          fs: new (flushing(NodeFS))(dataDir),
          startParams: [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync', ...noZeroFill],
        })
      : await PGlite.create(dataDir, { ...wasm, startParams: [...PGlite.defaultStartParams, ...noZeroFill] });
  },
  // Every statement goes by the protocol messages PGlite's query() and exec() send, so that its answer is parsed with
  // the table parsersFor made once (query() and exec() would copy PGlite's parsers for each call).
  query: ({ text, params, options }) => extended({ name: '', text, params, options }),
  exec: ({ text, options }) =>
    pg._runExclusiveQuery(async () => parseResults((await send(serialize.query(text), serialize.sync())).messages, parsersFor(options), { rowMode: options?.rowMode })),
  prepared: ({ name, text, params, options }) => extended({ name, text, params, options }),
  async listen({ channel, subscription }) {
    const unlisten = await pg.listen(channel, (payload) => parentPort.postMessage({ notify: subscription, payload }));
    unlisteners.set(subscription, unlisten);
  },
  async unlisten({ subscription }) {
    const unlisten = unlisteners.get(subscription);
    unlisteners.delete(subscription);
    if (unlisten) await unlisten();
  },
  close: () => (pg ? pg.close() : undefined),
};
// The thread's garbage collections, for /metrics: every statement waits while this thread collects, and the main
// thread's GC metrics cannot see this heap (at 1,000 events/s its full collections once set Vigil's p99 on PGlite).
// One message per batch of entries the observer is handed, a few a second.
const { PerformanceObserver, constants: perf } = require('node:perf_hooks');
const GC_KINDS = new Map([
  [perf.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [perf.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [perf.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [perf.NODE_PERFORMANCE_GC_WEAKCB, 'weakcb'],
]);
new PerformanceObserver((list) => {
  parentPort.postMessage({ gc: list.getEntries().map((entry) => [GC_KINDS.get(entry.detail.kind) ?? 'other', entry.duration / 1000]) });
}).observe({ entryTypes: ['gc'] });
parentPort.on('message', async (message) => {
  try {
    const value = await ops[message.op](message);
    parentPort.postMessage({ id: message.id, value });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: serialized(error) });
  }
});
`;
