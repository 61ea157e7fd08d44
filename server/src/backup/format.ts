import { closeSync, openSync, readSync } from 'node:fs';

/** What a backup file holds: a pg_dump custom-format archive, or a PGlite data directory (gzipped tar). */
export type BackupKind = 'postgres' | 'pglite';

/**
 * The kind of a backup file by its first bytes: `PGDMP` starts every custom-format archive, and PGlite's
 * `dumpDataDir('gzip')` is a gzip stream. Undefined: neither (not a Vigil backup).
 */
export function backupKind(file: string): BackupKind | undefined {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(5);
    const read = readSync(fd, head, 0, 5, 0);
    if (read === 5 && head.toString('latin1') === 'PGDMP') return 'postgres';
    if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
