import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { IdentityRequests } from '../identity/requests.js';
import { UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';
import { cliActor } from './supervisors.js';

const USAGE = 'Usage: vigil identity export IDENTITY | vigil identity erase IDENTITY [--json]';

/**
 * `vigil identity export IDENTITY` (the JSON document on stdout, streamed) and `vigil identity erase IDENTITY`
 * (progress on stderr, a summary on stdout). Both are logged under a keyed hash of the identity.
 */
export async function identityCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const [, sub, identity] = args.positionals;
  if ((sub !== 'export' && sub !== 'erase') || !identity?.trim()) throw new UsageError(USAGE);
  const { env } = loadConfig(io.env);
  const progress = lines(io.stderr);
  const writeOut = (chunk: string) => written(io.stdout, chunk);
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
    if (args.flags.get('json') === true) io.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      io.stdout.write(
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
function written(stream: NodeJS.WritableStream, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.write(chunk)) resolve();
    else stream.once('drain', resolve).once('error', reject);
  });
}
