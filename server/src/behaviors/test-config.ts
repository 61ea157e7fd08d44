import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes a VIGIL_CONFIG file for a test and returns its path. */
export function writeConfig(config: unknown, name = 'vigil.json'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'vigil-config-')), name);
  writeFileSync(path, JSON.stringify(config));
  return path;
}
