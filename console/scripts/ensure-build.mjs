// `pnpm --dir console run test` tests what `next build` produced: this builds the console first when the build is
// missing or older than its sources (after the root `pnpm build` it is current and nothing happens), and checks
// that the server the tests start has been built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, '..', 'server', 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error(`console tests: ${cli} is missing; run \`pnpm build\` at the repository root first.`);
  process.exit(1);
}

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const buildId = join(root, '.next', 'BUILD_ID');
const sources = ['app', 'components', 'lib', 'public', 'proxy.ts', 'next.config.mjs', 'package.json'].map((p) => join(root, p)).filter(existsSync);
const sourceTime = Math.max(...sources.map(newest));
if (existsSync(buildId) && statSync(buildId).mtimeMs >= sourceTime) {
  console.log('console tests: the production build is current');
} else {
  console.log('console tests: building the console (next build)');
  const result = spawnSync(join(root, 'node_modules', '.bin', 'next'), ['build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  process.exit(result.status ?? 1);
}
