/**
 * Which server a browser test file talks to. global-setup.ts starts one server (and one planning-system stand-in)
 * per Vitest worker (E2E_PARALLEL, default 2: vitest.config.ts) and provides their addresses as a list; a file takes the one of its
 * worker: Vitest numbers the workers that run at the same time 1…maxWorkers (`VITEST_POOL_ID`), so two files
 * running side by side never share a server, its database or its locks.
 */
import { inject } from 'vitest';

export interface E2EServer {
  baseUrl: string;
  /** Where a test scripts the planning system's next rejection (empty against E2E_BASE_URL). */
  planningSystemScriptUrl: string;
}

/** The server of this file's worker. */
export function ownServer(): E2EServer {
  const servers = inject('servers');
  const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[poolId - 1];
  if (!server) throw new Error(`No browser-test server for Vitest worker ${poolId}: global-setup started ${servers.length}`);
  return server;
}

/** The base URL (no trailing slash) of this file's server. */
export const baseUrl = (): string => ownServer().baseUrl;

/** Where this file scripts its planning system's next rejection (empty against E2E_BASE_URL). */
export const planningSystemScriptUrl = (): string => ownServer().planningSystemScriptUrl;
