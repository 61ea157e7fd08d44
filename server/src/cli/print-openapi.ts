#!/usr/bin/env node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { openApiDocument, openApiText } from '../http/openapi.js';
import { createVigil } from '../vigil.js';

/**
 * Writes server/openapi.json as the server generates it from its route schemas: `pnpm schema:openapi`.
 * The app is built on a throwaway embedded database and never listens; the document does not depend on either.
 */
const dir = mkdtempSync(join(tmpdir(), 'vigil-openapi-'));
try {
  const config = loadConfig({ VIGIL_LOG_LEVEL: 'silent', VIGIL_DATA_DIR: dir });
  const database = await openDatabase(config.env, { migrate: true, purpose: 'vigil openapi' });
  const vigil = await createVigil(config, { database, logger: false });
  await vigil.app.ready();
  const target = fileURLToPath(new URL('../../openapi.json', import.meta.url));
  writeFileSync(target, openApiText(openApiDocument(vigil.app)));
  await vigil.close();
  await database.close();
  process.stdout.write(`Wrote ${target}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
