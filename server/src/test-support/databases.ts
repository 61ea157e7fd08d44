// The test databases every package shares (migrated templates, one per run) live in the test kit.
export {
  copyPgliteTemplate,
  createTestDatabase,
  scratchPglite,
  surfaceDrivers,
  testDrivers,
  type TestDatabase,
  type TestDatabaseOptions,
  withClient,
} from '@vigil/test-kit';
