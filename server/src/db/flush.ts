import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Flushes one file or directory to the disk. A file written, or a rename, survives a crash of the machine only once
 * the file and the directory that names it are both flushed; until then it is in the operating system's cache.
 */
export function flushPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Flushes every file and directory under `dir`, then `dir` itself, and returns how many it flushed: for what PGlite
 * writes without flushing (a new data directory, which it copies out of memory; a backup's or a restore's open with
 * PGlite's defaults).
 */
export function flushTree(dir: string): number {
  let flushed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) flushed += flushTree(path);
    else if (entry.isFile()) {
      flushPath(path);
      flushed++;
    }
  }
  flushPath(dir);
  return flushed + 1;
}
