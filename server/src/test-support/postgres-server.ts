import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './cli.js';

const run = promisify(execFile);

/** A PostgreSQL server of the test's own, so a test can stop and restart it (a fault is the point). */
export interface PostgresServer {
  /** Superuser URL of the `postgres` database. */
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: sessions are terminated (57P01), new connections refused. */
  stop(): Promise<void>;
  /** `pg_ctl restart -m fast`. */
  restart(): Promise<void>;
  /** Stops the server for good and removes its data. */
  destroy(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error(`No PostgreSQL under ${root}: install Debian's postgresql package (.ci/with-postgres.sh does)`);
  return found;
}

interface Cluster {
  dir: string;
  data: string;
  port: number;
  asPg(cmd: string, args: string[]): Promise<unknown>;
}

/** A temp directory PostgreSQL may write (owned by user postgres when running as root) and a free port. */
async function newCluster(): Promise<Cluster> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const asPg = (cmd: string, args: string[]) => (root ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args));
  const dir = mkdtempSync(join(tmpdir(), 'vigil-pg-'));
  chmodSync(dir, 0o755);
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), -1);
  }
  return { dir, data: join(dir, 'data'), port: await freePort(), asPg };
}

/** Starts the cluster's data directory and returns its controls. */
async function serve(cluster: Cluster): Promise<PostgresServer> {
  const { dir, data, port, asPg } = cluster;
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
  const ctl = (...args: string[]) => asPg('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', ...args]);
  const start = async () => void (await ctl('-o', options, 'start'));
  await start();
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: async () => void (await ctl('-m', 'fast', 'stop')),
    restart: async () => void (await ctl('-m', 'fast', '-o', options, 'restart')),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await ctl('-m', 'immediate', 'stop').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** initdb + pg_ctl start on a free loopback port, as user postgres when running as root (PostgreSQL refuses root). */
export async function startPostgresServer(): Promise<PostgresServer> {
  const cluster = await newCluster();
  await cluster.asPg('initdb', ['-D', cluster.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  return serve(cluster);
}

/**
 * A streaming replica of `primary`, as an operator makes one: `pg_basebackup -R` (which writes standby.signal and
 * primary_conninfo) over loopback, started on its own port. initdb's pg_hba.conf trusts loopback replication.
 */
export async function startReplica(primary: PostgresServer): Promise<PostgresServer> {
  const cluster = await newCluster();
  const source = new URL(primary.url);
  await cluster.asPg('pg_basebackup', ['-h', source.hostname, '-p', source.port, '-U', 'postgres', '-D', cluster.data, '-R', '-X', 'stream', '--no-sync']);
  return serve(cluster);
}
