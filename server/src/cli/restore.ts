import { BackupError } from '../backup/errors.js';
import { backupKind } from '../backup/format.js';
import { restorePglite } from '../backup/pglite.js';
import { restorePostgres } from '../backup/postgres.js';
import { loadConfig } from '../config/load.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

/**
 * `vigil restore --from FILE [--force]`: into the database Vigil is configured for, of the kind the backup was
 * taken from (a pg_dump archive into PostgreSQL, a PGlite dump into VIGIL_DATA_DIR).
 */
export async function restoreCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const file = stringFlag(args, 'from');
  if (!file) throw new UsageError('Usage: vigil restore --from FILE [--force]');
  const force = args.flags.get('force') === true;
  let kind;
  try {
    kind = backupKind(file);
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (!kind) throw new BackupError(`${file} is not a Vigil backup (neither a pg_dump custom archive nor a PGlite dump).`);
  const { env } = loadConfig(io.env);
  const progress = lines(io.stderr);
  const configured = env.DATABASE_URL ? 'postgres' : 'pglite';
  if (kind !== configured) {
    throw new BackupError(
      `${file} is a ${kind} backup but Vigil is configured for ${configured}` +
        (kind === 'postgres' ? ': set DATABASE_URL to the PostgreSQL database to restore into.' : ': unset DATABASE_URL and set VIGIL_DATA_DIR.'),
    );
  }
  if (!env.DATABASE_URL) {
    await restorePglite(env.VIGIL_DATA_DIR, file, force, progress);
  } else {
    await restorePostgres({ url: env.DATABASE_URL, binDir: env.VIGIL_PG_BIN_DIR, env: io.env, progress }, file, force);
  }
  io.stdout.write(`Restored ${file} (${kind}). Start Vigil as usual; it applies any newer migrations.\n`);
}
