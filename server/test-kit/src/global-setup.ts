import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgliteTemplate, postgresTemplate } from './template.js';

/**
 * Vitest globalSetup: makes the migrated templates once, before any test file runs, instead of letting the first
 * test databases of several workers race to make them. Then gives the run a temp directory of its own, removed
 * when the run ends: the workers (started after this) and the processes they start inherit it as TMPDIR, so the
 * files and directories tests make there (configs, fixtures, test databases a crashed test left) do not outlive
 * the run. The templates stay where they were, named by VIGIL_TEST_KEPT_DIR.
 */
export default async function setup(): Promise<() => void> {
  await pgliteTemplate();
  const admin = process.env.VIGIL_TEST_DATABASE_URL;
  if (admin) await postgresTemplate(admin);
  const kept = tmpdir();
  const run = mkdtempSync(join(kept, 'vigil-run-'));
  // Open to all, sticky, as /tmp: the test PostgreSQL runs as the postgres user when the tests run as root, and
  // writes where tests tell it (a replica's data directory).
  chmodSync(run, 0o1777);
  process.env.VIGIL_TEST_KEPT_DIR = kept;
  process.env.TMPDIR = run;
  return () => {
    process.env.TMPDIR = kept;
    delete process.env.VIGIL_TEST_KEPT_DIR;
    rmSync(run, { recursive: true, force: true });
  };
}
