// ESM and CommonJS builds, each with declarations. The browser and Node packages call this before their own
// build, so it must be cheap when nothing changed and safe when dist already exists: tsc's incremental build
// skips unchanged output, and nothing is deleted, so a concurrent reader never sees a missing file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');

for (const project of ['tsconfig.build.json', 'tsconfig.cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', join(root, project)], { stdio: 'inherit' });
}
// The CommonJS folder gets its own package.json so Node reads its .js files as CommonJS despite "type": "module".
const marker = join(root, 'dist/cjs/package.json');
const content = `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`;
let current = null;
try {
  current = readFileSync(marker, 'utf8');
} catch {}
if (current !== content) {
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, content);
}
