import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cli.js';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface Pgbouncer {
  /** URL of `database` through PgBouncer. */
  url: string;
  stop(): Promise<void>;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket.end() && true)).on('error', () => resolve(false));
  });

/**
 * Debian's PgBouncer in front of `target` (a PostgreSQL URL with trust authentication), in the given pool mode.
 * As root it runs as user postgres: PgBouncer refuses to run as root.
 */
export async function startPgbouncer(target: string, mode: 'session' | 'transaction', poolSize = 10): Promise<Pgbouncer> {
  if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: install Debian's pgbouncer package (.ci/test.sh does)`);
  const server = new URL(target);
  const database = server.pathname.slice(1);
  const dir = mkdtempSync(join(tmpdir(), 'vigil-pgbouncer-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), `"${server.username}" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=${server.hostname} port=${server.port} dbname=${database} user=${server.username}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `pool_mode = ${mode}`,
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
  );
  const root = process.getuid?.() === 0;
  const child: ChildProcess = root
    ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, ini], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d) => (log = (log + d).slice(-4000)));
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited ${child.exitCode}: ${log}`);
    if (Date.now() > deadline) throw new Error('pgbouncer did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `postgres://${server.username}@127.0.0.1:${port}/${database}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
