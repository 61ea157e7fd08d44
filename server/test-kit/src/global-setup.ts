import { pgliteTemplate, postgresTemplate } from './template.js';

/**
 * Vitest globalSetup: makes the migrated templates once, before any test file runs, instead of letting the first
 * test databases of several workers race to make them.
 */
export default async function setup(): Promise<void> {
  await pgliteTemplate();
  const admin = process.env.VIGIL_TEST_DATABASE_URL;
  if (admin) await postgresTemplate(admin);
}
