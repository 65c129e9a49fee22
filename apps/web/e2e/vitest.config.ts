import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * How many files run at the same time, each against a server of its own: E2E_PARALLEL, default 2; 1 runs them one
 * after the other on one server. Against E2E_BASE_URL (one server someone already runs) always 1: files side by side
 * would share its state.
 */
function e2eParallel(): number {
  if (process.env.E2E_BASE_URL) return 1;
  const raw = process.env.E2E_PARALLEL ?? '2';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`E2E_PARALLEL must be a whole number from 1: got '${raw}'`);
  return n;
}
const parallel = e2eParallel();

/**
 * Browser tests: the built web app served by the real server, driven in headless Chromium.
 * Run from the repository root with `npm run test:e2e` (which builds the web app first).
 * E2E_PARALLEL files (default 2) run at the same time, each in a worker of its own against a server of its own
 * (global-setup.ts starts one per worker; helpers/server.ts picks the worker's); E2E_PARALLEL=1 runs them one by one.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    include: ['apps/web/e2e/**/*.e2e.ts'],
    globalSetup: ['apps/web/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // A worker per file in its own process ('forks', Vitest's default): VITEST_POOL_ID (1…maxWorkers) then names the
    // server of the file (helpers/server.ts), never the one of a file running beside it.
    pool: 'forks',
    fileParallelism: parallel > 1,
    maxWorkers: parallel,
  },
});
