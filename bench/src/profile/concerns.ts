import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The parts of a V8 CPU profile (the inspector's `Profiler.stop`) that are read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  /** Microseconds from the sample before; a sample lasts until the next one. */
  timeDeltas: number[];
}

export interface CallFrame {
  functionName: string;
  /** `file:///…`, `node:…`, or empty for V8's and Node's native code. */
  url: string;
  /** Zero-based. */
  lineNumber: number;
  columnNumber: number;
}

/** The source a frame's code was written in: its file's source map's original, or the file itself. */
export type Locate = (frame: CallFrame) => string;

/**
 * Locates frames through the source maps beside their files (the server's bundle has one, so its chunks resolve to
 * server/src/… and node_modules/…), reading each map once.
 */
export function sourceMapLocator(): Locate {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string) => {
    let map = maps.get(url);
    if (map === undefined) {
      const file = `${fileURLToPath(url)}.map`;
      map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null;
      maps.set(url, map);
    }
    return map;
  };
  return (frame) => {
    if (!frame.url.startsWith('file:')) return frame.url;
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    const original = entry && 'originalSource' in entry ? entry.originalSource : undefined;
    // A map names its sources relative to itself.
    return original ? fileURLToPath(new URL(original, pathToFileURL(`${fileURLToPath(frame.url)}.map`))) : fileURLToPath(frame.url);
  };
}

const FASTIFY =
  /^(fastify|@fastify\/.*|find-my-way|secure-json-parse|fast-json-stringify|avvio|light-my-request|fast-querystring|fast-uri|toad-cache|rfdc|abstract-logging|process-warning|fast-decode-uri-component|safe-regex2|ret)$/;
const PG = /^(pg|pg-.*|postgres-.*|pgpass|split2)$/;

/**
 * The package a path under node_modules belongs to (scoped names whole), or undefined. pnpm's store names it in the
 * path (`.pnpm/@scope+name@1.0.0/…`), which also holds for a source a package's own map names outside its folder.
 */
export function packageOf(path: string): string | undefined {
  const stored = /\/node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(path);
  if (stored) return stored[1]!.replace('+', '/');
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : first;
}

/**
 * A frame's concern, by the source it was written in; `idle` for the profiler's idle samples. Undefined for native
 * code that works for its caller (a regular expression, a builtin): it takes its caller's.
 */
export function concernOf(frame: CallFrame, source: string): string | undefined {
  if (source === '') {
    if (frame.functionName === '(idle)') return 'idle';
    if (frame.functionName === '(garbage collector)') return 'garbage collection';
    if (frame.functionName === '(program)' || frame.functionName === '(root)') return 'V8 (compiler, runtime)';
    // The stream writes' native calls, the time of their system calls included: on loopback the kernel also
    // delivers the bytes to the reader and wakes it.
    // (`writeBuffer` is also the file system's, for synchronous writes: a server logging at `warn` makes none.)
    if (/^write(v|Buffer|Utf8String|Latin1String|AsciiString|Ucs2String)$/.test(frame.functionName)) return 'socket writes';
    if (frame.functionName === 'runMicrotasks') return 'node: ticks, timers, promises';
    return undefined;
  }
  if (source.startsWith('node:')) {
    if (/^node:(_http_|https?$|http2$|net$|events$|buffer$|internal\/(streams\/|stream_base_commons$|http2?(\/|$)|buffer$|net$))/.test(source)) {
      return 'node: http, net, streams';
    }
    if (source.startsWith('node:internal/crypto')) return 'node: crypto';
    if (/^node:(timers$|async_hooks$|internal\/(timers|process\/|async_hooks))/.test(source)) return 'node: ticks, timers, promises';
    return 'node: other';
  }
  const pkg = packageOf(source);
  if (pkg !== undefined) {
    if (FASTIFY.test(pkg)) return 'fastify';
    if (PG.test(pkg)) return 'pg driver';
    return `library: ${pkg}`;
  }
  const server = /\/server\/src\/(?:([^/]+)\/)?/.exec(source);
  if (server) return `vigil: ${server[1] ?? '(root)'}`;
  if (source.includes('/bench/')) return 'bench (the floor route)';
  return 'other';
}

/**
 * Microseconds of the profile spent in each concern: a sample's own frame decides, or its nearest caller that has one
 * (concernOf); `idle` is left out.
 */
export function concerns(profile: CpuProfile, locate: Locate): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const own = new Map(profile.nodes.map((node) => [node.id, concernOf(node.callFrame, locate(node.callFrame))]));
  const byNode = new Map<number, string>();
  const resolve = (id: number): string => {
    let concern = byNode.get(id);
    if (concern === undefined) {
      const up = parent.get(id);
      concern = own.get(id) ?? (up === undefined ? 'V8 (compiler, runtime)' : resolve(up));
      byNode.set(id, concern);
    }
    return concern;
  };
  const spent = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const concern = resolve(profile.samples[i]!);
    if (concern !== 'idle') spent.set(concern, (spent.get(concern) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  return spent;
}
