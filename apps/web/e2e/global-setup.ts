import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startV8Flags } from '../../server/test/start-flags';
import { startPlanningSystemStandIn } from './planning-system-stand-in';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where a test scripts the planning system's next rejection (empty against E2E_BASE_URL). */
    planningSystemScriptUrl: string;
  }
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const HEALTH_TIMEOUT_MS = 120_000; // the first start of a fresh data directory seeds the demo data

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

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
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
  throw new Error(`The server did not answer /api/health within ${HEALTH_TIMEOUT_MS / 1000} s:\n${output()}`);
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

/**
 * Starts the real server on a free port with a fresh data directory, or uses E2E_BASE_URL when
 * set (a server someone already runs). The built web app must exist: `npm run test:e2e` builds it.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/$/, ''));
    project.provide('planningSystemScriptUrl', '');
    return undefined;
  }

  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build` first (npm run test:e2e does it).');
  }

  const port = await freePort();
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
    // Locks held by an open page are leased (issue 36): a killed browser's lock lapses this long after the page's
    // last renewal (every 30 s) plus the server's sweep (15 s). Above 30 s, so a living page never loses its lock;
    // short enough for live-collaboration.e2e.ts to see a lapse within its timeout.
    LOCK_LEASE_SECONDS: '45',
  };
  delete env.DATABASE_URL; // always the embedded database, never someone's real one

  // The compiled server, as `npm start` runs it (npm run test:e2e builds it with the web app).
  const bundle = join(repoRoot, 'apps/server/dist/server.js');
  if (!existsSync(bundle)) throw new Error('The server is not built: run npm run build (npm run test:e2e does)');
  const child = spawn(process.execPath, [...startV8Flags(), bundle], {
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

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, () => lines.join('\n'));
  } catch (error) {
    await stop(child);
    await planningSystem.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('planningSystemScriptUrl', planningSystem.scriptUrl);

  return async () => {
    await stop(child);
    await planningSystem.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}
