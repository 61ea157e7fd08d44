import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { concernOf, concerns, packageOf, sourceMapLocator, type CallFrame, type CpuProfile } from './concerns.js';

const frame = (functionName: string, url = ''): CallFrame => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
const store = '/work/node_modules/.pnpm';

describe('concerns of frames', () => {
  it("files Vigil's code under its top folder in server/src, however deep the file", () => {
    expect(concernOf(frame('f'), '/w/server/src/risk/contact/stage.ts')).toBe('vigil: risk');
    expect(concernOf(frame('f'), '/w/server/src/ingest/store.ts')).toBe('vigil: ingest');
    expect(concernOf(frame('f'), '/w/server/src/vigil.ts')).toBe('vigil: (root)');
  });

  it("names a library by pnpm's store path, scoped or not, and groups fastify's and pg's packages", () => {
    expect(packageOf(`${store}/@fastify+ajv-compiler@4.0.0/node_modules/@fastify/ajv-compiler/index.js`)).toBe('@fastify/ajv-compiler');
    // drizzle's map names its sources outside its own folder: the store path still says whose they are.
    expect(packageOf(`${store}/drizzle-orm@0.45.4_pg@8.23.1/node_modules/src/pg-core/session.ts`)).toBe('drizzle-orm');
    expect(packageOf('/w/node_modules/@scope/pkg/lib/a.js')).toBe('@scope/pkg');
    expect(packageOf('/w/server/src/a.ts')).toBeUndefined();
    expect(concernOf(frame('f'), `${store}/find-my-way@9.0.0/node_modules/find-my-way/index.js`)).toBe('fastify');
    expect(concernOf(frame('f'), `${store}/pg-protocol@1.16.1/node_modules/pg-protocol/dist/parser.js`)).toBe('pg driver');
    expect(concernOf(frame('f'), `${store}/lru-cache@11.5.3/node_modules/lru-cache/src/index.ts`)).toBe('library: lru-cache');
  });

  it("sorts Node's own modules and V8's special frames, and leaves other native code to its caller", () => {
    expect(concernOf(frame('emit', 'node:events'), 'node:events')).toBe('node: http, net, streams');
    expect(concernOf(frame('x', 'node:internal/streams/writable'), 'node:internal/streams/writable')).toBe('node: http, net, streams');
    expect(concernOf(frame('x', 'node:internal/http2/core'), 'node:internal/http2/core')).toBe('node: http, net, streams');
    expect(concernOf(frame('x', 'node:internal/httpsomething'), 'node:internal/httpsomething')).toBe('node: other');
    expect(concernOf(frame('Hash', 'node:internal/crypto/hash'), 'node:internal/crypto/hash')).toBe('node: crypto');
    expect(concernOf(frame('x', 'node:internal/process/task_queues'), 'node:internal/process/task_queues')).toBe('node: ticks, timers, promises');
    expect(concernOf(frame('writev'), '')).toBe('socket writes');
    expect(concernOf(frame('(garbage collector)'), '')).toBe('garbage collection');
    expect(concernOf(frame('(idle)'), '')).toBe('idle');
    expect(concernOf(frame('(program)'), '')).toBe('V8 (compiler, runtime)');
    expect(concernOf(frame('RegExp: ^a+$'), '')).toBeUndefined();
  });
});

describe('concerns of a profile', () => {
  it('adds up each sample until the next by its concern, gives native code its caller’s, and leaves idle out', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3, 5, 6] },
        { id: 2, callFrame: frame('(idle)') },
        { id: 3, callFrame: frame('accept', 'file:///w/server/src/ingest/accept.ts'), children: [4] },
        { id: 4, callFrame: frame('RegExp: ^a+$') },
        { id: 5, callFrame: frame('(garbage collector)') },
        { id: 6, callFrame: frame('writev') },
      ],
      samples: [2, 3, 4, 5, 6, 2],
      timeDeltas: [0, 100, 10, 20, 30, 40],
    };
    const locate = (f: CallFrame) => (f.url.startsWith('file:') ? f.url.slice('file://'.length) : f.url);
    expect(Object.fromEntries(concerns(profile, locate))).toEqual({
      'vigil: ingest': 10 + 20,
      'garbage collection': 30,
      'socket writes': 40,
    });
  });
});

describe('source maps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'concerns-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves a bundled frame to the source its map names, relative to the map, and leaves other files as they are', () => {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'chunk.js'), 'export const a = 1;\n');
    // "AAAA": generated line 1, column 0 is source 0, line 1, column 0.
    writeFileSync(join(dir, 'dist', 'chunk.js.map'), JSON.stringify({ version: 3, sources: ['../src/ingest/x.ts'], names: [], mappings: 'AAAA' }));
    writeFileSync(join(dir, 'plain.js'), 'export const b = 2;\n');
    const locate = sourceMapLocator();
    expect(locate(frame('a', pathToFileURL(join(dir, 'dist', 'chunk.js')).href))).toBe(join(dir, 'src', 'ingest', 'x.ts'));
    expect(locate(frame('b', pathToFileURL(join(dir, 'plain.js')).href))).toBe(join(dir, 'plain.js'));
    expect(locate(frame('emit', 'node:events'))).toBe('node:events');
    expect(locate(frame('writev'))).toBe('');
  });
});
