import { defineConfig } from 'vitest/config';

// Unit and API tests. Each worker process shares one database (PGlite in memory, or its own schema on
// PostgreSQL when TEST_DATABASE_URL is set) across its test files: isolate=false keeps the module
// cache, and with it the database, alive between files. Browser tests have their own config (apps/web/e2e).
export default defineConfig({
  test: {
    include: ['tools/eslint/*.test.mjs', 'packages/**/src/**/*.test.ts', 'apps/server/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'apps/web/e2e/**'],
    environment: 'node',
    globalSetup: ['apps/server/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
