import { backupPglite } from '../backup/pglite.js';
import { backupPostgres } from '../backup/postgres.js';
import { loadConfig } from '../config/load.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

/**
 * `vigil backup --to FILE`: PostgreSQL with pg_dump (custom format, safe while Vigil serves); PGlite with its dump
 * API, refused while a server holds the data directory.
 */
export async function backupCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const file = stringFlag(args, 'to');
  if (!file) throw new UsageError('Usage: vigil backup --to FILE');
  const { env } = loadConfig(io.env);
  // Progress goes to stderr, so stdout carries only the result.
  const progress = lines(io.stderr);
  if (!env.DATABASE_URL) {
    await backupPglite(env.VIGIL_DATA_DIR, file, progress);
  } else {
    await backupPostgres({ url: env.DATABASE_URL, binDir: env.VIGIL_PG_BIN_DIR, env: io.env, progress }, file);
  }
  io.stdout.write(`Backup written to ${file} (${env.DATABASE_URL ? 'postgres' : 'pglite'}).\n`);
}
