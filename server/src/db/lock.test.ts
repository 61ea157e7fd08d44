import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock.js';

describe('the data directory lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const holder = () => JSON.parse(readFileSync(join(dir, 'vigil.lock'), 'utf8')) as { pid: number; purpose: string };

  it('refuses a second holder in this process, naming the first, until the first releases it', () => {
    const release = lockDataDir(dir, 'vigil serve');
    expect(() => lockDataDir(dir, 'vigil backup')).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir, 'vigil backup')).toThrow(`in use by process ${process.pid} (vigil serve)`);
    expect(holder()).toMatchObject({ pid: process.pid, purpose: 'vigil serve' });
    release();
    expect(existsSync(join(dir, 'vigil.lock'))).toBe(false);
    lockDataDir(dir, 'vigil backup')();
  });

  it('knows a directory it holds through a symlink to it', () => {
    const release = lockDataDir(dir, 'vigil serve');
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    try {
      expect(() => lockDataDir(link, 'vigil backup')).toThrow(`in use by process ${process.pid} (vigil serve)`);
    } finally {
      rmSync(link);
      release();
    }
  });

  it('refuses while another live process holds it', () => {
    writeFileSync(join(dir, 'vigil.lock'), JSON.stringify({ pid: process.ppid, purpose: 'vigil serve' }));
    expect(() => lockDataDir(dir, 'vigil migrate')).toThrow(`in use by process ${process.ppid} (vigil serve)`);
  });

  it("takes over a lock left by a dead process, or by an earlier process that had this one's pid", () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, 'vigil.lock'), JSON.stringify({ pid: dead, purpose: 'vigil serve' }));
    lockDataDir(dir, 'vigil migrate')();
    // In a container Vigil is pid 1 on every start: a killed one's lock carries the pid of the next.
    writeFileSync(join(dir, 'vigil.lock'), JSON.stringify({ pid: process.pid, purpose: 'vigil serve' }));
    const release = lockDataDir(dir, 'vigil serve');
    expect(holder().pid).toBe(process.pid);
    release();
  });
});
