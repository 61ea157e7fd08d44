import { loadConfig } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { describeReport, type RetentionPolicy, runRetention } from '../retention/run.js';
import { storageStats, type StorageStats } from '../retention/stats.js';
import { UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

async function withDatabase<T>(io: CliIo, purpose: string, work: (database: DatabaseHandle, policy: RetentionPolicy) => Promise<T>): Promise<T> {
  const { env } = loadConfig(io.env);
  const database = await openDatabase(env, { migrate: true, purpose });
  try {
    return await work(database, { retentionDays: env.VIGIL_RETENTION_DAYS, webhookRetentionDays: env.VIGIL_WEBHOOK_RETENTION_DAYS });
  } finally {
    await database.close();
  }
}

/** `vigil retention run`: the daily retention run, now; prints what it created and dropped. */
export async function retentionCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const print = lines(io.stdout);
  if (args.positionals[1] !== 'run') throw new UsageError('Usage: vigil retention run [--json]');
  const report = await withDatabase(io, 'vigil retention', (database, policy) => runRetention(database.db, policy));
  if (args.flags.get('json') === true) print(JSON.stringify(report));
  else for (const line of describeReport(report)) print(line);
  // Another process holds the day's run: nothing was done, which a cron job should see.
  return report.ran ? 0 : 1;
}

/** `vigil stats`: rows and bytes per table, and what an event costs on disk. */
export async function statsCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const print = lines(io.stdout);
  const stats = await withDatabase(io, 'vigil stats', (database) => storageStats(database.db));
  if (args.flags.get('json') === true) print(JSON.stringify(stats));
  else for (const line of formatStats(stats)) print(line);
}

export function formatStats(stats: StorageStats): string[] {
  const width = Math.max(...stats.tables.map((t) => t.table.length), 5);
  return [
    `${'table'.padEnd(width)}  ${'rows'.padStart(12)}  ${'bytes'.padStart(14)}  ${'size'.padStart(10)}  partitions`,
    ...stats.tables.map(
      (t) => `${t.table.padEnd(width)}  ${String(t.rows).padStart(12)}  ${String(t.bytes).padStart(14)}  ${mb(t.bytes).padStart(10)}  ${t.partitions || ''}`,
    ),
    `${'total'.padEnd(width)}  ${''.padStart(12)}  ${String(stats.totalBytes).padStart(14)}  ${mb(stats.totalBytes).padStart(10)}`,
    stats.events > 0
      ? `bytes per event: ${stats.totalBytesPerEvent} (whole store), ${stats.eventBytesPerEvent} (events table) over ${stats.events} events`
      : 'bytes per event: no events stored',
  ];
}
