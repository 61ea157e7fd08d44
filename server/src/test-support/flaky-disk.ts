import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fillUp } from './small-disk.js';

const run = promisify(execFile);
const BLOCK = 4096;

/** A file system whose flushes of chosen files can be made to fail for real, not by a stand-in for fsync. */
export interface FlakyDisk {
  /** Where to put the files (the mounted file system). */
  path: string;
  /**
   * Writes everything written so far through to the image, then makes the flush of any new block fail with ENOSPC,
   * while writing it succeeds: the disk refuses it at the flush, as a failing device does. New blocks are those of
   * new files and of `file` past its content (its last block that is not all zeros, plus `marginBytes`), whose blocks
   * in the image are punched out; what `file` held is kept, so nothing flushed before is lost.
   */
  failFlushesAfterContentOf(file: string, marginBytes?: number): Promise<void>;
  /** Flushes succeed again. */
  heal(): void;
  unmount(): Promise<void>;
}

/**
 * An ext4 (without a journal, whose failed writes would make it read-only) on a loop device over a sparse image in a
 * tmpfs of its own. Writes go to ext4's page cache; a flush writes them through the loop device into the image. To
 * make a range's flush fail, its blocks in the image become holes (`fallocate --punch-hole`) and the tmpfs is filled:
 * the flush then needs tmpfs pages there are none of, and fsync() returns ENOSPC. Needs root, a free loop device and
 * filefrag (e2fsprogs) and fallocate (util-linux).
 */
export async function mountFlakyDisk(megabytes: number): Promise<FlakyDisk> {
  if (process.getuid?.() !== 0) throw new Error('mounting a loop device needs root');
  const root = mkdtempSync(join(tmpdir(), 'vigil-flaky-'));
  const backing = join(root, 'backing');
  const path = join(root, 'disk');
  mkdirSync(backing);
  mkdirSync(path);
  const image = join(backing, 'image');
  const filler = join(backing, 'filler');
  // The tmpfs holds what is written, with room to spare; the image may claim twice that, being sparse.
  await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', backing]);
  try {
    await run('truncate', ['-s', `${megabytes * 2}M`, image]);
    await run('mkfs.ext4', ['-q', '-F', '-O', '^has_journal', image]);
    await run('mount', ['-o', 'loop,errors=continue', image, path]);
  } catch (error) {
    await run('umount', ['-l', backing]).catch(() => {});
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return {
    path,
    async failFlushesAfterContentOf(file, marginBytes = 64 * 1024) {
      // Every block written before now reaches the image first: a file copied in and never flushed would otherwise
      // fail its writeback too, and live on only in the page cache, where memory pressure could drop it.
      await run('sync', ['-f', path]);
      const from = Math.ceil((contentEnd(file) + marginBytes) / BLOCK);
      // filefrag -e: "ext: logical_offset: physical_offset: length: …", in blocks of 4 KiB (ext4's here).
      const { stdout } = await run('filefrag', ['-e', '-b4096', file]);
      for (const m of stdout.matchAll(/^\s*\d+:\s*(\d+)\.\.\s*(\d+):\s*(\d+)\.\.\s*\d+:/gm)) {
        const [first, last, physical] = [Number(m[1]), Number(m[2]), Number(m[3])];
        if (last < from) continue;
        const start = physical + Math.max(0, from - first);
        const blocks = last - Math.max(first, from) + 1;
        await run('fallocate', ['--punch-hole', '--offset', String(start * BLOCK), '--length', String(blocks * BLOCK), image]);
      }
      fillUp(filler);
    },
    heal: () => rmSync(filler, { force: true }),
    async unmount() {
      // A lazily unmounted tmpfs keeps its pages until its last user goes: the filler would pin them.
      rmSync(filler, { force: true });
      await run('umount', ['-l', path]).catch(() => {});
      await run('umount', ['-l', backing]).catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The byte after the file's last block that is not all zeros (0 for a file of zeros). */
function contentEnd(file: string): number {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(BLOCK);
  try {
    for (let at = Math.ceil(size / BLOCK) - 1; at >= 0; at--) {
      const n = readSync(fd, buffer, 0, BLOCK, at * BLOCK);
      if (buffer.subarray(0, n).some((b) => b !== 0)) return (at + 1) * BLOCK;
    }
    return 0;
  } finally {
    closeSync(fd);
  }
}
