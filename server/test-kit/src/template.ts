import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { migrationsFolder } from '@vigil/drizzle';
import pg from 'pg';

/*
 * A migrated database is made once and copied per test database: initdb on PGlite costs seconds per copy and the
 * migrations a second more, times ~100 test databases per run. The template's name carries a hash of the
 * migration folder (and of the PGlite version, whose data directory format it is), so a changed migration makes a
 * new template instead of reusing a stale one.
 */

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== '@electric-sql/pglite') {
    dir = dirname(dir);
  }
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version as string;
}

let hash: string | undefined;

/** 12 hex digits naming the current migrations (and PGlite version). */
export function migrationsHash(): string {
  if (hash) return hash;
  const h = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  for (const file of filesUnder(migrationsFolder)) h.update(file.slice(migrationsFolder.length)).update(readFileSync(file));
  hash = h.digest('hex').slice(0, 12);
  return hash;
}

/**
 * Where templates are kept across runs: the temp directory the run started with. During a run, the global setup
 * points TMPDIR at a directory of the run's own (see global-setup.ts) and names the kept one in VIGIL_TEST_KEPT_DIR.
 */
const keptDirectory = () => process.env.VIGIL_TEST_KEPT_DIR ?? tmpdir();

/**
 * Settings of every PGlite test database, appended to the template's postgresql.conf. A buffer cache of 16 MB, not
 * PostgreSQL's 128 MB: PGlite zero-fills the whole cache in its WebAssembly memory at every open, 30,000 page
 * faults and half the CPU of an open (0.35 s to 0.18), for the few MB a test's data takes. A cache's size changes
 * how often a page is read again, never what a query answers; Vigil's own embedded databases keep the default.
 */
const TEST_SETTINGS = ['shared_buffers = 16MB'];
const settingsTag = createHash('sha256').update(TEST_SETTINGS.join('\n')).digest('hex').slice(0, 6);

/**
 * A PGlite data directory kept in the temp directory across runs under `name` (`…/<name>-<settings>/pgdata`, named
 * also by TEST_SETTINGS), made by `make` if missing. Built aside and renamed into place, so concurrent suites never
 * see half a one.
 */
async function keptPgliteDirectory(name: string, make: (db: import('@electric-sql/pglite').PGlite) => Promise<void>): Promise<string> {
  const root = join(keptDirectory(), `${name}-${settingsTag}`);
  const pgdata = join(root, 'pgdata');
  if (existsSync(pgdata)) return pgdata;
  const building = mkdtempSync(join(keptDirectory(), 'vigil-template-building-'));
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(join(building, 'pgdata'));
    await make(db);
    await db.close();
    appendFileSync(join(building, 'pgdata', 'postgresql.conf'), `\n# Vigil's test databases (server/test-kit/src/template.ts)\n${TEST_SETTINGS.join('\n')}\n`);
    try {
      renameSync(building, root);
    } catch (error) {
      // Another suite finished first: its template is as good as ours.
      if (!existsSync(pgdata)) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return pgdata;
}

/**
 * The migrated PGlite data directory, made if missing; its name changes with the migrations.
 *
 * Without initdb's template0 and template1: a run copies this directory ~200 times, and those two databases, which
 * PGlite never connects to nor creates a database from, were 600 of its 1,200 files and 14 of its 40 MB (a copy
 * and its removal took 160 ms of CPU on disk, now 70).
 */
export function pgliteTemplate(): Promise<string> {
  return keptPgliteDirectory(`vigil-template-pglite-slim-${migrationsHash()}`, async (db) => {
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(drizzle(db), { migrationsFolder });
    await db.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    await db.exec('DROP DATABASE template0');
    await db.exec('DROP DATABASE template1');
    await db.exec('CHECKPOINT');
  });
}

/**
 * A PGlite data directory as initdb leaves it, nothing in it: what a test of PGlite itself starts from. Copied and
 * opened it costs a seventh of the CPU of `PGlite.create()` in memory, which runs initdb every time.
 */
export function pgliteEmptyTemplate(): Promise<string> {
  return keptPgliteDirectory(`vigil-template-pglite-empty-${pgliteVersion()}`, async () => {});
}

/** Copies the PGlite template into `dir/pgdata`, where Vigil (VIGIL_DATA_DIR=dir) opens it. */
export async function copyPgliteTemplate(dir: string): Promise<void> {
  cpSync(await pgliteTemplate(), join(dir, 'pgdata'), { recursive: true });
}

const templateName = () => `vigil_template_${migrationsHash()}`;
let pgReady: Promise<string> | undefined;

/** A client of its own on `url`, ended after `use`. */
async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Renames database `building` to `name`, unless another suite's database got the name first: its template is as
 * good as ours (`building` is then the caller's to drop). Renames racing each other are refused as
 * duplicate_database, or, when both reach the catalog at once, as a unique violation of its index.
 */
export async function renameIntoPlace(admin: string, building: string, name: string): Promise<void> {
  await withClient(admin, async (c) => {
    try {
      await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      if (!['42P04', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
    }
  });
}

/**
 * The migrated template database on the PostgreSQL server of `admin` (a superuser URL), made if missing: migrated
 * under a building name and renamed when done, so `CREATE DATABASE … TEMPLATE` never copies half a migration.
 */
export function postgresTemplate(admin: string): Promise<string> {
  pgReady ??= (async () => {
    const name = templateName();
    const exists = await withClient(admin, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
    if (exists) return name;
    const building = `vigil_template_building_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await withClient(admin, (c) => c.query(`CREATE DATABASE ${building}`));
    try {
      const { drizzle } = await import('drizzle-orm/node-postgres');
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await withClient(databaseUrl(admin, building), (c) => migrate(drizzle(c), { migrationsFolder }));
      await renameIntoPlace(admin, building, name);
    } finally {
      await withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`));
    }
    return name;
  })();
  pgReady.catch(() => (pgReady = undefined));
  return pgReady;
}

export { databaseUrl, withClient };
