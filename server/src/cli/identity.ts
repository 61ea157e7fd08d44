import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { IdentityRequests } from '../identity/requests.js';
import { UsageError, type ParsedArgs } from './args.js';
import { progress } from './backup.js';
import { cliActor } from './supervisors.js';

const USAGE = 'Usage: vigil identity export IDENTITY | vigil identity erase IDENTITY [--json]';

/**
 * `vigil identity export IDENTITY` (the JSON document on stdout, streamed) and `vigil identity erase IDENTITY`
 * (progress on stderr, a summary on stdout). Both are logged under a keyed hash of the identity.
 */
export async function identityCommand(args: ParsedArgs): Promise<void> {
  const [, sub, identity] = args.positionals;
  if ((sub !== 'export' && sub !== 'erase') || !identity?.trim()) throw new UsageError(USAGE);
  const { env } = loadConfig();
  const database = await openDatabase(env, { migrate: true, purpose: `vigil identity ${sub}` });
  try {
    const requests = new IdentityRequests(database);
    if (sub === 'export') {
      const summary = await requests.export(cliActor(), identity, (chunk) => writeOut(chunk));
      await writeOut('\n');
      progress(`exported ${summary.events} events (request ${summary.requestId})`);
      return;
    }
    const report = await requests.erase(cliActor(), identity, { progress });
    if (args.flags.get('json') === true) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      process.stdout.write(
        `Erased: ${report.found.emails} e-mail(s), ${report.found.phones} phone(s), ${report.found.ips} IP(s) found; ` +
          `history kept under ${report.pseudonym} (request ${report.requestId}).\n` +
          Object.entries(report.changed)
            .map(([table, n]) => `  ${table}: ${n}\n`)
            .join(''),
      );
    }
  } finally {
    await database.close();
  }
}

/** Waits for stdout to take a chunk, so a large export into a slow pipe does not pile up in memory. */
function writeOut(chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.stdout.write(chunk)) resolve();
    else process.stdout.once('drain', resolve).once('error', reject);
  });
}
