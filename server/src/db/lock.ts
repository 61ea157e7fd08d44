import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The embedded database's directory cannot be used: missing and uncreatable, read-only, or held by another process. */
export class DataDirError extends Error {
  override name = 'DataDirError';
}

/** Raised when another live process holds the embedded database. */
export class DataDirLockedError extends DataDirError {
  override name = 'DataDirLockedError';
}

/** A file-system refusal as one sentence naming the path, for the CLI to print instead of a stack trace. */
function unusable(dir: string, error: unknown): DataDirError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const why =
    code === 'EROFS'
      ? 'it is on a read-only file system'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENOTDIR'
          ? 'a part of the path is a file'
          : code === 'ENOENT'
            ? 'it does not exist and cannot be created'
            : code === 'ENOSPC'
              ? 'the disk is full'
              : (error as Error).message;
  return new DataDirError(`Cannot use the data directory ${dir} (VIGIL_DATA_DIR): ${why} (${code})`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM means the process exists but belongs to someone else: still alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The directories this process holds, with what for: the lock file cannot tell this process's holders apart. */
const heldHere = new Map<string, string>();

/**
 * PGlite is one in-process PostgreSQL: two processes on one directory would corrupt it, and so would two handles
 * in one process. An exclusive lock file with the holder's pid makes the second process fail at once, before it
 * opens anything. A lock left by a killed process is taken over: its pid is dead, or is this process's own with no
 * holder here (in a container Vigil is pid 1 on every start).
 */
export function lockDataDir(dataDir: string, purpose: string): () => void {
  const dir = resolve(dataDir);
  // Held directories are known by their real path: a symlink to one is the same directory.
  let real: string;
  try {
    mkdirSync(dir, { recursive: true });
    real = realpathSync(dir);
  } catch (error) {
    throw unusable(dir, error);
  }
  const holding = heldHere.get(real);
  if (holding !== undefined) throw lockedBy(dir, process.pid, holding);
  const path = join(dir, 'vigil.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      let fd: number;
      try {
        fd = openSync(path, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
        throw unusable(dir, error);
      }
      writeSync(fd, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      heldHere.set(real, purpose);
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(real);
        process.off('exit', release);
        try {
          const holder = JSON.parse(readFileSync(path, 'utf8')) as { pid: number };
          if (holder.pid === process.pid) rmSync(path, { force: true });
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once('exit', release);
      return release;
    } catch (e) {
      if (e instanceof DataDirError || (e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder: { pid?: number; purpose?: string } = {};
      try {
        holder = JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        // A half-written lock from a process killed mid-write: treat as stale.
      }
      if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) throw lockedBy(dir, holder.pid, holder.purpose);
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${path}`);
}

function lockedBy(dir: string, pid: number, purpose: string | undefined): DataDirLockedError {
  return new DataDirLockedError(
    `The embedded database in ${dir} is in use by process ${pid} (${purpose ?? 'vigil'}). ` +
      'PGlite allows one process per data directory: stop that process first, or run against PostgreSQL with DATABASE_URL.',
  );
}
