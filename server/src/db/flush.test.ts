import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { flushPath, flushTree } from './flush.js';

describe('flushing to the disk', () => {
  const made: string[] = [];
  const tree = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-flush-'));
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('flushes every file and directory of a tree, the tree itself last, and nothing a link points to', () => {
    const dir = tree();
    mkdirSync(join(dir, 'base', '1'), { recursive: true });
    writeFileSync(join(dir, 'PG_VERSION'), '17');
    writeFileSync(join(dir, 'base', '1', '1259'), 'rows');
    writeFileSync(join(dir, 'base', '1', '1249'), 'rows');
    symlinkSync('/', join(dir, 'elsewhere'));
    // 3 files and 3 directories (the tree, base, base/1); the link is not followed.
    expect(flushTree(dir)).toBe(6);
  });

  it('names what it cannot flush', () => {
    expect(() => flushPath(join(tree(), 'gone'))).toThrow(/ENOENT/);
  });
});
