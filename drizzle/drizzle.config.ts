import { defineConfig } from 'drizzle-kit';

// One migration history for both drivers: PGlite speaks the same dialect as PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/*.ts',
  out: './migrations',
});
