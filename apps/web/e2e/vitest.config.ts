import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the built web app served by the real server, driven in headless Chromium.
 * Run from the repository root with `npm run test:e2e` (which builds the web app first).
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    include: ['apps/web/e2e/**/*.e2e.ts'],
    globalSetup: ['apps/web/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    fileParallelism: false,
  },
});
