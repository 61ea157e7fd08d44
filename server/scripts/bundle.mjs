// Bundles the compiled CLI (dist/cli/main.js, emitted by tsc with the decorator metadata type-graphql needs) into
// dist/cli.js, the `vigil` bin, with its dependencies. Node 20's module loader spent about 0.6 s of CPU resolving,
// reading and compiling ~1,500 files on every start of `vigil serve` (a third of a start on PGlite); the bundle
// loads a few files. Each command stays its own chunk, loaded when it runs, so `vigil keys` does not load the
// server. The rest of dist/ stays as tsc emitted it (the schema printers, tests that import a module).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/**
 * `@vigil/drizzle` (not its `/schema`, which is bundled) names the migrations folder relative to its own file; bundled,
 * that would be relative to a chunk. Resolved from the package itself at run time instead.
 */
const migrationsFolder = {
  name: 'vigil-migrations-folder',
  setup(b) {
    b.onResolve({ filter: /^@vigil\/drizzle$/ }, () => ({ path: 'migrations-folder', namespace: 'vigil' }));
    b.onLoad({ filter: /.*/, namespace: 'vigil' }, () => ({
      resolveDir: dist,
      contents: `import { createRequire } from 'node:module';
        import { dirname, join } from 'node:path';
        export const migrationsFolder = join(dirname(createRequire(import.meta.url).resolve('@vigil/drizzle/package.json')), 'migrations');`,
    }));
  },
};

rmSync(join(dist, 'chunks'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'dist/cli/main.js' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // No keepNames: it wraps every named function and class of the bundle in a call that redefines its name, closures
  // made per event included; without it the server spent 184 µs of CPU per event under load instead of 224 (medians
  // of four alternating rounds). Names change: every class tsc emits for decorators (`let Key = class Key`) keeps the
  // outer name and gets its inner one renamed (`class Key2`), and scope hoisting renames a top-level name where two
  // modules collide. What reads names: type-graphql, so every GraphQL type names itself (graphql/types) and
  // graphql/bundled-schema.integration.test.ts checks the bundle's schema against schema.graphql; and a logged error's
  // type, which for a renamed library class carries the suffix (Apollo's parse error is `SyntaxError2`). No answer
  // carries a class's name.
  keepNames: false,
  sourcemap: true,
  logLevel: 'warning',
  // Loaded from node_modules at run time: PGlite finds its WebAssembly and data files beside its own module;
  // graphql is the one copy that Apollo, type-graphql and graphql-query-complexity (required at run time, see
  // graphql/cost-limit.ts) must share, as its CommonJS build; the rest are optional and not installed.
  external: ['@electric-sql/pglite', 'graphql', 'pg-native', 'class-validator'],
  alias: { graphql: 'graphql/index.js' },
  plugins: [migrationsFolder],
  // Bundled CommonJS code calls require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __vigilCreateRequire } from 'node:module'; const require = __vigilCreateRequire(import.meta.url);" },
});
