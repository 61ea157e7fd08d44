// `pnpm --dir console run test` tests what `next build` produced: this builds the console first when its build is
// missing or was made from other inputs (the bootstrap's content-hash check, .ci/build.mjs: after the bootstrap's
// build nothing happens), and checks that the server the tests start has been built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, '..', 'server', 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error(`console tests: ${cli} is missing; run \`pnpm build\` at the repository root first.`);
  process.exit(1);
}
const result = spawnSync(process.execPath, [join(root, '..', '.ci', 'build.mjs'), '@vigil/console'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
