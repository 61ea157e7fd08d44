import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackupError } from './errors.js';
import { backupKind } from './format.js';
import { findPgTool } from './pg-tools.js';

describe('pg_dump and pg_restore discovery', () => {
  it('finds a pg_dump at least as new as the server', () => {
    const tool = findPgTool('pg_dump', 15, undefined, process.env);
    expect(tool.major).toBeGreaterThanOrEqual(15);
    expect(tool.path).toMatch(/pg_dump$/);
  });

  it('refuses a server newer than every installed client, naming the package and VIGIL_PG_BIN_DIR', () => {
    expect(() => findPgTool('pg_restore', 99, undefined, process.env)).toThrow(BackupError);
    expect(() => findPgTool('pg_restore', 99, undefined, process.env)).toThrow(/pg_restore 99 or newer.*postgresql-client-99.*VIGIL_PG_BIN_DIR/);
    expect(() => findPgTool('pg_dump', 15, '/nonexistent', process.env)).toThrow(/found|VIGIL_PG_BIN_DIR/);
  });

  it("looks a bare name up on the command's own PATH, not the process's", () => {
    const bin = mkdtempSync(join(tmpdir(), 'vigil-pgbin-'));
    writeFileSync(join(bin, 'pg_restore'), '#!/bin/sh\necho "pg_restore (PostgreSQL) 99.1"\n');
    chmodSync(join(bin, 'pg_restore'), 0o755);
    expect(findPgTool('pg_restore', 99, undefined, { ...process.env, PATH: `${bin}:${process.env.PATH}` })).toEqual({ path: 'pg_restore', major: 99 });
    expect(() => findPgTool('pg_restore', 99, undefined, process.env)).toThrow(BackupError);
  });
});

describe('backup kinds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-kind-'));
  const file = (name: string, bytes: Buffer) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };

  it('tells a pg_dump archive, a PGlite dump and anything else apart by their first bytes', () => {
    expect(backupKind(file('a', Buffer.from('PGDMP\x01\x0f')))).toBe('postgres');
    expect(backupKind(file('b', Buffer.from([0x1f, 0x8b, 8, 0])))).toBe('pglite');
    expect(backupKind(file('c', Buffer.from('{}')))).toBeUndefined();
    expect(backupKind(file('d', Buffer.alloc(0)))).toBeUndefined();
  });
});
