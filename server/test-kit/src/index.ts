export {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  cores,
  emulatedDevices,
  launchChromium,
  launchChromiumServer,
  vigilOn,
  type VigilCalls,
} from './chromium.js';
export {
  createTestDatabase,
  scratchPglite,
  surfaceDriver,
  surfaceDrivers,
  testDrivers,
  type TestDatabase,
  type TestDatabaseOptions,
  type TestDriver,
} from './databases.js';
export { freePort } from './ports.js';
export { copyPgliteTemplate, migrationsHash, pgliteTemplate, postgresTemplate, withClient } from './template.js';
