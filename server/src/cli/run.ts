import { BackupError } from '../backup/errors.js';
import { faultKind } from '../db/faults.js';
import { DataDirError } from '../db/lock.js';
import { ConfigError } from '../errors.js';
import { parseArgs, UsageError } from './args.js';
import type { CliIo, Command } from './io.js';

const USAGE = `Usage: vigil <command>

  serve                                           start the server (PORT, HOST, DATABASE_URL, VIGIL_DATA_DIR, VIGIL_CONFIG)
  migrate                                         apply pending database migrations
  keys create --kind write|client --name NAME [--json]   create a key; the secret is shown only here
  keys list [--json]                              list keys (never the secret)
  keys revoke ID                                  revoke a key at once
  intel update [--only LIST]                      download the public IP lists into the paths in VIGIL_CONFIG
  retention run [--json]                          create partitions ahead and drop what VIGIL_RETENTION_DAYS no longer keeps
  stats [--json]                                  rows and bytes per table, and bytes per stored event
  supervisors create --username U --role admin|supervisor|viewer [--password-stdin] [--json]
                                                  create a console/API account; the password is shown only here
  supervisors list [--json]                       list supervisor accounts
  supervisors disable|enable --username U [--json]
                                                  disable an account at once (sessions end, tokens refused) or enable it
  supervisors delete --username U [--json]        delete an account with its sessions and tokens
  supervisors reset-password --username U [--json]
                                                  a new generated password, shown only here; its sessions end
  supervisors set-role --username U --role admin|supervisor|viewer [--json]
  supervisors sessions [--username U] [--json]    list console sessions
  supervisors revoke-session ID                   end a console session at once
  supervisors audit [--username U] [--limit N] [--json]
                                                  changes to accounts and tokens, newest first
  tokens create --username U [--name N] [--expires-in-days D | --expires-at ISO] [--json]
                                                  create an API token for REST and GraphQL; shown only here
  tokens list [--username U] [--json]             list API tokens (never the secret)
  tokens revoke ID                                revoke a token at once
  webhooks create|list|update|delete|messages|attempts|redeliver
                                                  webhook subscriptions and their delivery log (README, Webhooks)
  backup --to FILE                                back up the database (PostgreSQL: pg_dump; PGlite: stop the server first)
  restore --from FILE [--force]                   restore a backup into an empty database (--force: replace what is there)
  identity export IDENTITY                        JSON of everything held about an identity (audited)
  identity erase IDENTITY [--json]                erase an identity, its e-mails and phones; counters keep their totals (audited)
  devices key|unbind DEVICE_ID [--json]           show a device's bound key, or forget it (README, Device binding)

See the README for every environment variable and the config file.`;

/*
 * Each command's module is imported when that command runs: the server (Fastify, Apollo, type-graphql) costs a
 * second and a half of CPU to load, which `vigil keys list` or `vigil --help` has no use for.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serve,
  migrate: async () => migrate,
  keys: async () => (await import('./keys.js')).keysCommand,
  intel: async () => (await import('./intel.js')).intelCommand,
  retention: async () => (await import('./storage.js')).retentionCommand,
  stats: async () => (await import('./storage.js')).statsCommand,
  supervisors: async () => (await import('./supervisors.js')).supervisorsCommand,
  tokens: async () => (await import('./supervisors.js')).tokensCommand,
  webhooks: async () => (await import('./webhooks.js')).webhooksCommand,
  backup: async () => (await import('./backup.js')).backupCommand,
  restore: async () => (await import('./restore.js')).restoreCommand,
  identity: async () => (await import('./identity.js')).identityCommand,
  devices: async () => (await import('./devices.js')).devicesCommand,
};

async function migrate(_args: unknown, io: CliIo): Promise<void> {
  const [{ loadConfig }, { openDatabase }] = await Promise.all([import('../config/load.js'), import('../db/open.js')]);
  const database = await openDatabase(loadConfig(io.env).env, { migrate: true, purpose: 'vigil migrate' });
  await database.close();
  io.stdout.write(`Migrations applied (${database.driver}).\n`);
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const command = args.positionals[0];
  if (command === undefined || command === 'help' || command === '--help') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) throw new UsageError(`Unknown command ${command}\n\n${USAGE}`);
  const status = await (await load())(args, io);
  return typeof status === 'number' ? status : 0;
}

/**
 * Runs one command and answers its exit status: 0 done, 1 a bug (with its stack) or a run that did not complete,
 * 2 bad usage or configuration (one sentence), 3 the database not usable.
 */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error: unknown) {
    // Expected failures get a clear sentence; anything else gets its stack for a bug report.
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof DataDirError || error instanceof BackupError) {
      io.stderr.write(`vigil: ${error.message}\n`);
      return 2;
    }
    // The database being away at start is the operator's to fix, not a bug: one line, no stack.
    if (faultKind(error)) {
      io.stderr.write(`vigil: the database is not usable (${faultKind(error)}): ${(error as Error).message}\n`);
      return 3;
    }
    io.stderr.write(`vigil: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}
