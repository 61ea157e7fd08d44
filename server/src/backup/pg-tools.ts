import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BackupError } from './errors.js';

/** Where Debian (and the PGDG packages) install each major version's client programs side by side. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

export interface PgTool {
  path: string;
  /** Major version of the program (15 for 15.8). */
  major: number;
}

function majorOf(path: string, env: NodeJS.ProcessEnv): number | undefined {
  try {
    const out = execFileSync(path, ['--version'], { encoding: 'utf8', env });
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(out);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `pg_dump` or `pg_restore` for a server of major version `serverMajor`. pg_dump refuses a server newer than
 * itself, and an archive restores only with a pg_restore at least as new as the pg_dump that wrote it, so the
 * same major as the server is preferred (the archive then restores on any server of that version or newer),
 * else the newest installed that is not older than the server. `binDir` (VIGIL_PG_BIN_DIR) overrides the search;
 * a bare name is looked up on `env`'s PATH (the command's environment).
 */
export function findPgTool(name: 'pg_dump' | 'pg_restore', serverMajor: number, binDir: string | undefined, env: NodeJS.ProcessEnv): PgTool {
  const candidates: string[] = [];
  if (binDir) candidates.push(join(binDir, name));
  else {
    const versions = existsSync(DEBIAN_ROOT) ? readdirSync(DEBIAN_ROOT).filter((v) => /^\d+$/.test(v)) : [];
    const ordered = versions.map(Number).sort((a, b) => (a === serverMajor ? -1 : b === serverMajor ? 1 : b - a));
    for (const v of ordered) candidates.push(join(DEBIAN_ROOT, String(v), 'bin', name));
    candidates.push(name); // PATH
  }
  const found: PgTool[] = [];
  for (const path of candidates) {
    const major = majorOf(path, env);
    if (major === undefined) continue;
    if (major >= serverMajor) return { path, major };
    found.push({ path, major });
  }
  const seen = found.length ? ` (found ${found.map((t) => `${t.path}: ${t.major}`).join(', ')})` : '';
  throw new BackupError(
    `${name} ${serverMajor} or newer is needed for this PostgreSQL ${serverMajor} server${seen}: install the client ` +
      `(Debian: apt-get install postgresql-client-${serverMajor}) or point VIGIL_PG_BIN_DIR at its bin directory.`,
  );
}
