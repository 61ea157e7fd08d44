// The bootstrap's build (`make test`, `make start`): builds each workspace package whose inputs changed since its
// last successful build, in dependency order, and skips the rest, so a second run on an unchanged copy builds
// nothing (the console's `next build` alone is a minute of CPU). `node .ci/build.mjs @vigil/console` checks only
// the packages named (the console's and the browser library's tests do, before testing their build).
// `node .ci/build.mjs --typecheck` does the same for the packages' type checks (make check).
//
// Skipping is decided on content, never on mtimes: a package's input hash covers every file of its folder that git
// tracks or would track (not ignored; nested packages excluded; for a build, test files too), the lockfile, the
// root's package.json and tsconfig.base.json, the Node version and the built output of the workspace packages it
// depends on, so a change to what a dependency builds rebuilds its dependents. The stamp
// (node_modules/.cache/vigil-build.json in the package) also records a hash of the build's output (paths and
// contents), so a deleted or edited dist/.next rebuilds too.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const sha = () => createHash('sha256');

// The workspace's packages (pnpm-workspace.yaml's globs, listed by pnpm itself).
const listed = JSON.parse(execFileSync('pnpm', ['-r', 'ls', '--depth', '-1', '--json'], { cwd: root, encoding: 'utf8' }));
const packages = new Map();
for (const { name, path } of listed) {
  if (path === root) continue;
  const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
  const deps = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })
    .filter(([, version]) => String(version).startsWith('workspace:'))
    .map(([dep]) => dep);
  const scripts = Object.keys(manifest.scripts ?? {});
  packages.set(name, { name, dir: relative(root, path), deps, scripts, output: name === '@vigil/console' ? '.next' : 'dist' });
}
const packageDirs = [...packages.values()].map((p) => p.dir);

// Every file git tracks or would track (the working tree's content, so uncommitted edits count), one listing.
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && existsSync(join(root, f)));

function hashFiles(paths) {
  const hash = sha();
  for (const path of [...paths].sort()) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}
const shared = hashFiles(['pnpm-lock.yaml', 'package.json', 'tsconfig.base.json']) + process.version;
// `--typecheck`: the packages' `typecheck` scripts instead (make check), two at a time; it makes no output.
const typecheck = process.argv[2] === '--typecheck';
const building = !typecheck;

// Files no build output depends on, so a change to a test rebuilds nothing (the console's `next build` alone is a
// minute of CPU). Most build configs leave them out; bench's tsc compiles its tests into dist, but they run from src,
// and `next build` only type-checks them. Type checks (make check, and the check suite of make test) read them, so
// the type-check hash keeps them.
const testOnly = (path) => /\.test\.tsx?$/.test(path) || path.startsWith('console/e2e/');

const inputs = new Map();
function inputHash(name) {
  if (inputs.has(name)) return inputs.get(name);
  const pkg = packages.get(name);
  // Files of nested packages (server/test-kit inside server) belong to those packages.
  const nested = packageDirs.filter((d) => d !== pkg.dir && d.startsWith(`${pkg.dir}/`));
  const own = files.filter((f) => f.startsWith(`${pkg.dir}/`) && !nested.some((d) => f.startsWith(`${d}/`)) && !(building && testOnly(f)));
  const hash = sha().update(shared).update(hashFiles(own));
  // What a package uses of a workspace dependency is its build output (dist), so a dependency's test-only change
  // rebuilds nothing downstream. Builds run in dependency order, so that output is current when this is asked.
  for (const dep of [...pkg.deps].sort()) if (packages.has(dep)) hash.update(`${dep}:${outputHash(packages.get(dep))}`);
  inputs.set(name, hash.digest('hex'));
  return inputs.get(name);
}

// The output folder's content (Next's own cache inside .next is not output: it changes without a build).
function outputHash(pkg) {
  const top = join(root, pkg.dir, pkg.output);
  if (!existsSync(top)) return null;
  const hash = sha();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        // Turbopack links external packages into .next/node_modules: the link itself is the output.
        hash.update(`${relative(top, path)}\0->${readlinkSync(path)}\0`);
      } else if (entry.isDirectory()) {
        if (path !== join(top, 'cache')) walk(path);
      } else {
        hash
          .update(`${relative(top, path)}\0`)
          .update(readFileSync(path))
          .update('\0');
      }
    }
  };
  walk(top);
  return hash.digest('hex');
}

const task = typecheck ? 'typecheck' : 'build';
const stampPath = (pkg) => join(root, pkg.dir, `node_modules/.cache/vigil-${task}.json`);
function readStamp(pkg) {
  try {
    return JSON.parse(readFileSync(stampPath(pkg), 'utf8'));
  } catch {
    return null;
  }
}

// Dependency order; the root package.json's `build` builds drizzle and the browser library first, and so does this.
const order = [];
const visit = (name) => {
  if (!packages.has(name) || order.includes(name)) return;
  for (const dep of packages.get(name).deps) visit(dep);
  order.push(name);
};
for (const name of ['@vigil/drizzle', '@vigil/browser', ...[...packages.keys()].sort()]) visit(name);

const wanted = process.argv.slice(typecheck ? 3 : 2);
for (const name of wanted) if (!packages.get(name)?.scripts.includes(task)) throw new Error(`${task}: no workspace package ${name} with a ${task} script`);
const current = (name) => {
  const pkg = packages.get(name);
  const stamp = readStamp(pkg);
  return stamp !== null && stamp.input === inputHash(name) && (typecheck || stamp.output === outputHash(pkg));
};
const stamp = (name) => {
  const pkg = packages.get(name);
  mkdirSync(dirname(stampPath(pkg)), { recursive: true });
  writeFileSync(stampPath(pkg), `${JSON.stringify({ input: inputHash(name), output: typecheck ? null : outputHash(pkg) })}\n`);
};
const chosen = order.filter((n) => packages.get(n).scripts.includes(task) && (wanted.length === 0 || wanted.includes(n)));
const skip = (name) => console.log(`${task}: ${name} is current (inputs unchanged since its last ${task})`);
if (typecheck) {
  // A type check changes no output, so every package's inputs are known up front and the stale ones run together:
  // two at a time (tsc is single-threaded), stamped only when all of them pass.
  const stale = [];
  for (const name of chosen) {
    if (current(name)) skip(name);
    else stale.push(name);
  }
  if (stale.length > 0) {
    const filters = stale.flatMap((name) => ['--filter', name]);
    const result = spawnSync('pnpm', ['-r', '--workspace-concurrency=2', '--reporter=append-only', ...filters, 'run', 'typecheck'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
    for (const name of stale) stamp(name);
  }
} else {
  // One at a time in dependency order: a package is checked after its dependencies' builds, whose output it hashes.
  for (const name of chosen) {
    if (current(name)) {
      skip(name);
      continue;
    }
    const started = Date.now();
    const result = spawnSync('pnpm', ['--filter', name, 'run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
    stamp(name);
    console.log(`build: ${name} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
