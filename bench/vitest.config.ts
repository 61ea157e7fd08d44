import { defineConfig } from 'vitest/config';

// Only the sources: `tsc` also compiles the tests into dist/.
export default defineConfig({ test: { include: ['src/**/*.test.ts'] } });
