import { bootstrapAdmin, bootstrapCredentials, type FirstCredentials } from '../auth/bootstrap.js';
import { loadConfig } from '../config/load.js';
import { createVigil } from '../vigil.js';
import type { ParsedArgs } from './args.js';
import type { CliIo } from './io.js';
import { startWatchdog } from './watchdog.js';

function banner(first: FirstCredentials): string {
  const line = '='.repeat(78);
  return [
    line,
    ' Vigil first start: these credentials are shown ONCE and never logged. Store them now.',
    '',
    ` Write key  (server-side only; Authorization: Bearer … on POST /events):`,
    `   ${first.writeKey.key}`,
    ` Client key (browser and Android libraries):`,
    `   ${first.clientKey.key}`,
    line,
  ].join('\n');
}

function adminBanner(admin: { username: string; password: string }): string {
  const line = '='.repeat(78);
  return [
    line,
    ' Admin account for the console, GraphQL and /api (shown ONCE, store it now):',
    `   username: ${admin.username}`,
    `   password: ${admin.password}`,
    ' Mint an API token with POST /api/auth/login, or: vigil tokens create --username admin',
    line,
  ].join('\n');
}

/**
 * The longest a stop may take. Shutdown waits for commits in flight, and a database that stopped answering must
 * not make SIGTERM wait forever; what was answered is already committed, so exiting loses nothing acknowledged.
 */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** Runs until a signal ends the process: unlike the other commands, serve owns the process it runs in. */
export async function serve(_args: ParsedArgs, io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const vigil = await createVigil(config);
  const first = await bootstrapCredentials(vigil.database, vigil.keys);
  // Printed on stdout directly, never through the logger, so log shipping never carries a secret.
  if (first) io.stdout.write(`${banner(first)}\n`);
  const admin = await bootstrapAdmin(vigil.database);
  if (admin) io.stdout.write(`${adminBanner(admin)}\n`);

  // Left running through shutdown: a hang there must end the process too.
  if (config.env.VIGIL_WATCHDOG_SECONDS > 0) startWatchdog(config.env.VIGIL_WATCHDOG_SECONDS);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    vigil.app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      vigil.app.log.error({ signal }, `shutdown did not finish in ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    vigil
      .close()
      .then(() => process.exit(0))
      .catch((error) => {
        vigil.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await vigil.app.listen({ port: config.env.PORT, host: config.env.HOST });
  const address = vigil.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.env.PORT;
  const host = config.env.HOST === '0.0.0.0' || config.env.HOST === '::' ? 'localhost' : config.env.HOST;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  io.stdout.write(
    [
      `Vigil server: ${base}  (database: ${vigil.database.driver})`,
      `  POST ${base}/events      OpenAPI ${base}/openapi.json      health ${base}/healthz`,
      '',
    ].join('\n'),
  );
}
