import { execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A small file system of the test's own, to fill up on purpose. */
export interface SmallDisk {
  path: string;
  /** Writes a filler file until the file system is full (ENOSPC). */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  freeBytes(): number;
  unmount(): Promise<void>;
}

/** A tmpfs of `megabytes` MiB. Mounting needs root (CI and the development machines run as root). */
export async function mountSmallDisk(megabytes: number): Promise<SmallDisk> {
  if (process.getuid?.() !== 0) throw new Error('mounting a small tmpfs to fill needs root');
  const path = mkdtempSync(join(tmpdir(), 'vigil-disk-'));
  await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', path]);
  const filler = join(path, 'filler');
  return {
    path,
    fill: () => fillUp(filler),
    free: () => rmSync(filler, { force: true }),
    freeBytes: () => {
      const stats = statfsSync(path);
      return Number(stats.bavail) * Number(stats.bsize);
    },
    async unmount() {
      await run('umount', ['-l', path]).catch(() => {});
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Appends zeros to `filler` until its file system is full (ENOSPC), to the last page. */
export function fillUp(filler: string): void {
  const fd = openSync(filler, 'a');
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last partial megabyte, so nothing at all is left.
  const fd2 = openSync(filler, 'a');
  try {
    for (;;) writeSync(fd2, Buffer.alloc(4096));
  } catch {
    // Full.
  } finally {
    closeSync(fd2);
  }
}
