import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startV8Flags } from '../../server/test/start-flags';
import type { E2EServer } from './helpers/server';
import { startPlanningSystemStandIn } from './planning-system-stand-in';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per Vitest worker (E2E_PARALLEL of them); a file takes its worker's (helpers/server.ts). */
    servers: E2EServer[];
  }
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const HEALTH_TIMEOUT_MS = 120_000; // the first start of a fresh data directory seeds the demo data
/** Seeding the demo world into an empty PostgreSQL database takes longer than into the embedded one. */
const HEALTH_TIMEOUT_POSTGRES_MS = 300_000;

/**
 * E2E_DATABASE_URL: the servers run on PostgreSQL instead of the embedded database, each with E2E_WORKERS processes
 * (default 1): `E2E_DATABASE_URL=postgres://postgres@127.0.0.1:5432/e2e_live E2E_WORKERS=2`. Each server has a scratch
 * database of its own, the given name with its number (`e2e_live_1`, `e2e_live_2`, …): dropped (if there) and created
 * empty before the start, the demo world seeded into it, dropped after. The name must start with `e2e` so that no real
 * database is ever dropped by mistake.
 */
function scratchDatabases(count: number): { url: string; name: string; admin: string }[] | null {
  const raw = process.env.E2E_DATABASE_URL;
  if (!raw) return null;
  const given = decodeURIComponent(new URL(raw).pathname.replace(/^\//, ''));
  if (!/^e2e[a-z0-9_]*$/.test(given)) {
    throw new Error(`E2E_DATABASE_URL must name a scratch database whose name starts with e2e (it is dropped): got '${given}'`);
  }
  const admin = new URL(raw);
  admin.pathname = '/postgres';
  return Array.from({ length: count }, (_, i) => {
    const name = `${given}_${i + 1}`;
    const url = new URL(raw);
    url.pathname = `/${name}`;
    return { url: url.toString(), name, admin: admin.toString() };
  });
}

async function onMaintenanceDb(adminUrl: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The server did not answer /api/health within ${timeoutMs / 1000} s:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Started {
  server: E2EServer;
  stop(): Promise<void>;
}

/**
 * One server of the browser tests: the compiled server, as `npm start` runs it, on `port` with a fresh data directory
 * (or the scratch database `scratch`), reaching a planning-system stand-in of its own.
 */
async function startOne(port: number, scratch: { url: string; name: string; admin: string } | null, workers: string): Promise<Started> {
  const dropScratch = async () => {
    if (scratch) await onMaintenanceDb(scratch.admin, [`DROP DATABASE IF EXISTS "${scratch.name}" WITH (FORCE)`]);
  };
  if (scratch) {
    await dropScratch();
    await onMaintenanceDb(scratch.admin, [`CREATE DATABASE "${scratch.name}"`]);
  }

  const dataDir = await mkdtemp(join(tmpdir(), 'bo-e2e-data-'));
  const planningSystem = await startPlanningSystemStandIn();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PLANNING_SYSTEM: 'http',
    PLANNING_SYSTEM_URL: planningSystem.submitUrl,
    // Locks held by an open page are leased (issue 36): renewed by the page's PUT /api/presence (every 30 s) and by the
    // server's sweep while the tab's stream is open (every LOCK_LEASE_SECONDS / 4 = 5 s here), so a killed browser's
    // lock lapses within 20 s + one sweep of its stream's end. Below the PUT's 30 s on purpose: every browser test then
    // shows that a living page keeps its locks through its open stream alone.
    LOCK_LEASE_SECONDS: '20',
  };
  delete env.DATABASE_URL; // the embedded database or the scratch one, never someone's real one
  delete env.WORKERS;
  if (scratch) Object.assign(env, { DATABASE_URL: scratch.url, DEMO_DATA: 'always', WORKERS: workers });

  const child = spawn(process.execPath, [...startV8Flags(), join(repoRoot, 'apps/server/dist/server.js')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 200));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const stopAll = async () => {
    await stop(child);
    await planningSystem.close();
    await rm(dataDir, { recursive: true, force: true });
    await dropScratch();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, () => lines.join('\n'), scratch ? HEALTH_TIMEOUT_POSTGRES_MS : HEALTH_TIMEOUT_MS);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { server: { baseUrl, planningSystemScriptUrl: planningSystem.scriptUrl }, stop: stopAll };
}

/**
 * Starts one real server per Vitest worker (maxWorkers: E2E_PARALLEL, default 2; vitest.config.ts), side by side, each on a
 * free port with a fresh data directory, and provides their addresses (`servers`): a test file talks to its worker's
 * (helpers/server.ts), so files running at the same time never share a server's state. Or uses E2E_BASE_URL when set
 * (a server someone already runs; the files then run one at a time). The built web app must exist: `npm run test:e2e`
 * builds it. The servers' databases are embedded ones, or scratch PostgreSQL databases named after E2E_DATABASE_URL
 * (with E2E_WORKERS processes per server: live events then cross processes).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('servers', [{ baseUrl: external.replace(/\/$/, ''), planningSystemScriptUrl: '' }]);
    return undefined;
  }

  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build` first (npm run test:e2e does it).');
  }
  // The compiled server, as `npm start` runs it (npm run test:e2e builds it with the web app).
  if (!existsSync(join(repoRoot, 'apps/server/dist/server.js'))) throw new Error('The server is not built: run npm run build (npm run test:e2e does)');

  // One server per worker: vitest.config.ts sets maxWorkers from E2E_PARALLEL (default 2).
  const count = Number(project.config.maxWorkers) || 1;
  const scratch = scratchDatabases(count);
  const workers = process.env.E2E_WORKERS ?? '1';
  if (!scratch && workers !== '1') throw new Error('E2E_WORKERS needs E2E_DATABASE_URL: the embedded database belongs to one process');

  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const results = await Promise.allSettled(ports.map((port, i) => startOne(port, scratch?.[i] ?? null, workers)));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stopAll = async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    'servers',
    started.map((s) => s.server),
  );
  return stopAll;
}
