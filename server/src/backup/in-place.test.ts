import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError } from './errors.js';
import { writeInPlace } from './in-place.js';

describe('writeInPlace', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const target = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-in-place-'));
    dirs.push(dir);
    return { dir, file: join(dir, 'backup.tar') };
  };
  const failing = (which: 'file' | 'directory') => (path: string) => {
    if ((which === 'file') === path.endsWith('.partial')) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
  };

  it('puts a flushed, whole file at the name and nothing beside it', async () => {
    const { dir, file } = target();
    const flushed: string[] = [];
    await writeInPlace(
      file,
      async (partial) => writeFileSync(partial, 'whole'),
      (p) => flushed.push(p),
    );
    expect(readFileSync(file, 'utf8')).toBe('whole');
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(flushed).toEqual([`${file}.partial`, dir]);
  });

  it('leaves nothing at either name when the file cannot be flushed', async () => {
    const { file } = target();
    const error = await writeInPlace(file, async (partial) => writeFileSync(partial, 'whole'), failing('file')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toBe(`Could not write the backup ${file}: EIO: i/o error, fsync`);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('says the file is complete when only its directory could not be flushed', async () => {
    const { file } = target();
    const error = await writeInPlace(file, async (partial) => writeFileSync(partial, 'whole'), failing('directory')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(new RegExp(`^The backup ${file} is complete, but its directory could not be flushed to the disk \\(EIO`));
    expect(readFileSync(file, 'utf8')).toBe('whole');
  });
});
