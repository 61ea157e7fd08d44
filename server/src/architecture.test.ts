import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of server/src, lowest first. A module is a top-level folder, or a top-level file without `.ts`
 * (`vigil.ts` is the module `vigil`). Code may import its own module and modules of lower layers only; modules that
 * share a layer do not import each other. Tests (`*.test.ts`) may import anything.
 *
 * | Layer | Modules                                          | What lives there                                         |
 * |-------|--------------------------------------------------|----------------------------------------------------------|
 * | 1     | ids, errors, export                              | ids, the error catalogue, CSV                            |
 * | 2     | db                                               | connections, statements, faults, storable text           |
 * | 3     | pipeline                                         | contracts every insight stage shares, the fact cache     |
 * | 4     | webhooks                                         | subscriptions, the transactional outbox, delivery        |
 * | 5     | auth                                             | keys, supervisors, sessions, the supervisor guard        |
 * | 6     | registry                                         | device registry                                          |
 * | 7     | behaviors, risk, handprint, reporting, retention, binding | insight stages and the features beside them     |
 * | 8     | config                                           | env and file config, composed from features' schemas     |
 * | 9     | ingest                                           | accepting, normalizing and storing events                |
 * | 10    | js, live, backup                                 | the /js browser side, the live feed, backup and restore  |
 * | 11    | identity                                         | data-protection requests: export and erasure             |
 * | 12    | http                                             | Fastify server, REST routes, problem+json                |
 * | 13    | graphql                                          | GraphQL on the same server                               |
 * | 14    | vigil                                            | the one wiring root                                      |
 * | 15    | cli, index                                       | entry points                                             |
 * | 16    | test-support                                     | test helpers (they run CLI commands in the test process) |
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['ids', 'errors', 'export'],
  ['db'],
  ['pipeline'],
  ['webhooks'],
  ['auth'],
  ['registry'],
  ['behaviors', 'risk', 'handprint', 'reporting', 'retention', 'binding'],
  ['config'],
  ['ingest'],
  ['js', 'live', 'backup'],
  ['identity'],
  ['http'],
  ['graphql'],
  ['vigil'],
  ['cli', 'index'],
  ['test-support'],
];

const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a file names: imports, re-exports, `import()` and `import x = require()`, type-only too. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      found.push(node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveLocal(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`${relative(SRC, from)} imports ${specifier}, which does not resolve to a .ts file`);
}

const moduleOf = (file: string): string => relative(SRC, file).split(sep)[0]!.replace(/\.ts$/, '');
const layerOf = new Map(LAYERS.flatMap((modules, i) => modules.map((m) => [m, i] as const)));

const files = sourceFiles(SRC);
const edges = new Map(
  files.map((file) => [
    file,
    specifiers(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveLocal(file, s)),
  ]),
);

/** Strongly connected components with more than one file (or a file importing itself), by Tarjan's algorithm. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

describe('server/src import graph', () => {
  it('sees the source tree (a broken walk would make every other check pass)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map(moduleOf)).toContain('pipeline');
  });

  it('places every module in exactly one layer', () => {
    const named = LAYERS.flat();
    expect(new Set(named).size).toBe(named.length);
    expect([...new Set(files.map(moduleOf))].filter((m) => !layerOf.has(m)).sort()).toEqual([]);
  });

  it('has no import that points to its own or a higher layer', () => {
    const upward: string[] = [];
    for (const [file, targets] of edges) {
      const from = moduleOf(file);
      for (const target of targets) {
        const to = moduleOf(target);
        if (from !== to && layerOf.get(to)! >= layerOf.get(from)!) upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no cycle between modules', () => {
    const modules = new Map<string, string[]>();
    for (const [file, targets] of edges) {
      const from = moduleOf(file);
      const out = modules.get(from) ?? [];
      for (const target of targets) if (moduleOf(target) !== from) out.push(moduleOf(target));
      modules.set(from, out);
    }
    expect(cycles(modules)).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(cycles(edges).map((c) => c.map((f) => relative(SRC, f)))).toEqual([]);
  });

  it('finds a planted cycle and an upward import (the checks can fail)', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(layerOf.get('http')! >= layerOf.get('ingest')!).toBe(true);
  });
});
