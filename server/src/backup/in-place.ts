import { renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { flushPath } from '../db/flush.js';
import { BackupError } from './errors.js';

/**
 * Writes a backup so that a file at `file` is always a whole one, after a failed run or a crash of the machine too:
 * `write` makes `FILE.partial`, which is flushed to the disk and only then renamed into place (its directory flushed
 * after). On any failure the partial file is removed and the error is a BackupError naming the backup, so a full
 * backup disk reads as what it is, not as a fault of the database. `flush` is the disk's flush; tests make it fail.
 */
export async function writeInPlace(file: string, write: (partial: string) => Promise<void>, flush: (path: string) => void = flushPath): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await write(partial);
    flush(partial);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Could not write the backup ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    flush(dirname(resolve(file)));
  } catch (error) {
    // The file is whole and in place; only its name may not survive a crash of the machine. Still a failure, since a
    // backup is only done when it is durable, but not one that says nothing was written.
    throw new BackupError(
      `The backup ${file} is complete, but its directory could not be flushed to the disk (${(error as Error).message}): a crash of the machine may still lose it`,
      { cause: error },
    );
  }
}
