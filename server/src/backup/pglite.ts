import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataDirLockedError, lockDataDir } from '../db/lock.js';
import { writeInPlace } from './in-place.js';
import { BackupError, type Progress } from './errors.js';
import { flushPath, flushTree } from '../db/flush.js';
import { mb } from './format.js';

/**
 * The data directory for the time of `work`, or a refusal naming what to do. PGlite is one process per data
 * directory and a copy taken under a running server is torn, so backup and restore take the same lock the server
 * holds: a live server (its pid in `vigil.lock`) is detected, never raced.
 */
async function withDataDir<T>(dataDir: string, purpose: string, work: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = lockDataDir(dataDir, purpose);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `${error.message} A PGlite data directory cannot be backed up or restored while Vigil runs on it (nor copied ` +
          `with cp or tar): stop the server, run \`${purpose}\` again, then start the server.`,
      );
    }
    throw error;
  }
  try {
    return await work();
  } finally {
    release();
  }
}

const hasFiles = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

/** The embedded database as PGlite's own dump (a gzipped tar of its data directory), written to `file`. */
export async function backupPglite(dataDir: string, file: string, progress: Progress): Promise<void> {
  const pgdata = join(resolve(dataDir), 'pgdata');
  await withDataDir(dataDir, 'vigil backup', async () => {
    if (!hasFiles(pgdata)) throw new BackupError(`There is no database in ${pgdata} (VIGIL_DATA_DIR) to back up.`);
    const { PGlite } = await import('@electric-sql/pglite');
    progress(`opening ${pgdata}`);
    const pg = await PGlite.create(pgdata);
    try {
      progress('dumping the data directory (PGlite dumpDataDir)');
      const dump = await pg.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      await writeInPlace(file, async (partial) => writeFileSync(partial, bytes));
    } finally {
      await pg.close();
      // Opening and closing wrote to the live database (a shutdown checkpoint; a recovery, after a crash) with
      // PGlite's defaults, which never flush; the next server would find it cleanly shut down and flush nothing.
      flushTree(pgdata);
    }
    progress(`backup written: ${file} (${mb(statSync(file).size)})`);
  });
}

/**
 * Loads a PGlite dump into VIGIL_DATA_DIR. An existing database there is refused unless `force`. The dump is
 * loaded into a sibling directory first and swapped in only once PGlite has opened it, so a failed restore leaves
 * the old database as it was.
 */
export async function restorePglite(dataDir: string, file: string, force: boolean, progress: Progress): Promise<void> {
  const dir = resolve(dataDir);
  const pgdata = join(dir, 'pgdata');
  await withDataDir(dataDir, 'vigil restore', async () => {
    if (hasFiles(pgdata) && !force) {
      throw new BackupError(`${pgdata} (VIGIL_DATA_DIR) already holds a database: restore into an empty VIGIL_DATA_DIR, ` + 'or pass --force to replace it.');
    }
    const staging = join(dir, 'pgdata.restoring');
    rmSync(staging, { recursive: true, force: true });
    const { PGlite } = await import('@electric-sql/pglite');
    progress(`loading ${file} (${mb(statSync(file).size)}) into ${staging}`);
    const pg = await PGlite.create(staging, { loadDataDir: new Blob([readFileSync(file)]) });
    try {
      await pg.query('SELECT 1');
    } finally {
      await pg.close();
    }
    // PGlite wrote the dump's files without flushing them: on the disk before they replace anything.
    progress(`flushing ${staging} to the disk`);
    flushTree(staging);
    if (existsSync(pgdata)) {
      progress(`--force: replacing ${pgdata}`);
      const old = join(dir, 'pgdata.replaced');
      rmSync(old, { recursive: true, force: true });
      renameSync(pgdata, old);
      renameSync(staging, pgdata);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(staging, pgdata);
    flushPath(dir);
    progress(`restored into ${pgdata}`);
  });
}
