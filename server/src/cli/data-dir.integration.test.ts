import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, spawnCli } from '../test-support/cli.js';
import { mountSmallDisk, type SmallDisk } from '../test-support/small-disk.js';

const run = promisify(execFile);

/** `vigil serve` on a data directory it cannot use: one line naming the path, a non-zero exit, no stack trace. */
describe('a data directory that cannot be used at start', () => {
  let scratch: string;
  let disk: SmallDisk;
  beforeAll(async () => {
    assertBuilt();
    scratch = mkdtempSync(join(tmpdir(), 'vigil-datadir-'));
    disk = await mountSmallDisk(200);
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await disk?.unmount();
  });

  async function refused(dataDir: string): Promise<string> {
    const result = await spawnCli(['serve'], { VIGIL_DATA_DIR: dataDir, PORT: '0' });
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    return lines[0]!;
  }

  it('missing and impossible to create (a part of the path is a file)', async () => {
    writeFileSync(join(scratch, 'file'), '');
    expect(await refused(join(scratch, 'file', 'data'))).toContain('ENOTDIR');
  });

  it('holding a database, on a file system that became read-only', async () => {
    const dataDir = join(disk.path, 'data');
    const migrated = await runCli(['migrate'], { VIGIL_DATA_DIR: dataDir });
    expect(migrated.code, migrated.stderr).toBe(0);
    await run('mount', ['-o', 'remount,ro', disk.path]);
    try {
      expect(await refused(dataDir)).toContain('read-only');
      expect(await refused(join(disk.path, 'missing'))).toContain('cannot be created');
    } finally {
      await run('mount', ['-o', 'remount,rw', disk.path]);
    }
  });
});
