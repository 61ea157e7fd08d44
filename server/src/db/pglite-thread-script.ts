/**
 * The source of the embedded database's thread (see pglite-thread.ts), run with `new Worker(source, { eval: true })`.
 * A string rather than a module file, so the same code runs from `dist/` and under vitest (which runs `src/*.ts`,
 * where no `.js` beside this file exists to point a Worker at, and whose transform of a function's text would not
 * survive `toString()`).
 *
 * Protocol, one message each way per call: `{ id, op, ... }` in, `{ id, value }` or `{ id, error }` out, in
 * arrival order; `{ notify, payload }` out for a LISTEN subscription. An error travels as its message, name and
 * primitive own fields (PostgreSQL's `code`, `detail`, `constraint`…), which is what the fault mapping reads.
 */
export const PGLITE_THREAD_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
let pg;
// PGlite's protocol serializer and result parser, for named prepared statements: set when PGlite is opened.
let serialize, parseResults;
// Loaded while the caller compiles PGlite's WebAssembly, before the first message asks for it.
const loading = import(workerData.pglite);
loading.catch(() => {});
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
// Protocol messages in one call into PostgreSQL, which runs them all before it answers; a failure arrives as PGlite's
// DatabaseError once the whole call has run. PGlite writes its files at the Sync, which ends every call here: an
// error makes PostgreSQL skip to the Sync, so the call always leaves it ready for the next statement.
const send = (...messages) => {
  let length = 0;
  for (const m of messages) length += m.length;
  const buffer = new Uint8Array(length);
  let at = 0;
  for (const m of messages) {
    buffer.set(m, at);
    at += m.length;
  }
  return pg.execProtocol(buffer, { syncToFs: true });
};
// One statement by the extended protocol, the messages PGlite's query() sends, but in two calls at most, where
// query() makes one call a message: each call into PGlite costs ~10 µs of JavaScript on either side of PostgreSQL, and
// a group commit is one statement. A named prepared statement, as node-postgres runs one, is parsed (and described)
// once per instance, then only bound and executed, so PostgreSQL plans it generically after a few runs instead of
// parsing and planning the text every time; the unnamed one ('') is parsed on every call, as query() does. Its
// parameters' types (Describe) are needed to serialize them, hence the first call.
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
      return serializer ? serializer(value) : value.toString();
    });
    const { messages } = await send(
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    );
    return parseResults(messages, parsersFor(options), { rowMode: options?.rowMode })[0];
  });
const ops = {
  async open({ dataDir, modules }) {
    const { PGlite, protocol, parse } = await loading;
    ({ serialize } = protocol);
    ({ parseResults } = parse);
    pg = await PGlite.create(dataDir, { pgliteWasmModule: modules.pglite, initdbWasmModule: modules.initdb });
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
parentPort.on('message', async (message) => {
  try {
    const value = await ops[message.op](message);
    parentPort.postMessage({ id: message.id, value });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: serialized(error) });
  }
});
`;
