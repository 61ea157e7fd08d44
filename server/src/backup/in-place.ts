import { renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { flushPath } from '../db/flush.js';
import { BackupError } from './errors.js';

/**
 * Writes a backup so that a file at `file` is always a whole one, after a failed run or a crash of the machine too:
 * `write` makes `FILE.partial`, which is flushed to the disk and only then renamed into place (its directory flushed
 * after). On any failure the partial file is removed and the error is a BackupError naming the backup, so a full
 * backup disk reads as what it is, not as a fault of the database.
 */
export async function writeInPlace(file: string, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await write(partial);
    flushPath(partial);
    renameSync(partial, file);
    flushPath(dirname(resolve(file)));
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Could not write the backup ${file}: ${(error as Error).message}`, { cause: error });
  }
}
