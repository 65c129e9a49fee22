/**
 * The app of the version tests (item-versions.api.test.ts, massive-edit-publish-diff.api.test.ts): manual
 * jobs, a temporary DATA_DIR, no planning-system delay, five SKUs, and every user logged in up front.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client.js';
import { buildModule, buildSku, type ModuleSpec } from './builders.js';
import { buildTestApp, type AuthHeader, type TestUser } from './test-app.js';

export interface VersionsApp<User extends string> {
  app: FastifyInstance;
  db: Db;
  /** Each user's bearer header. */
  h: Record<User, AuthHeader>;
  /** The five SKUs' UPCs, in the order they were built. */
  upc: string[];
  /** Builds in one transaction, as the app writes: the item's first version holds its lines. */
  inTx<T>(build: (tx: Db) => Promise<T>): Promise<T>;
}

/**
 * Builds MOD_A, the module both version tests start from: upc[0] must-have (min 1) and upc[1] eligible
 * (min 2), with `more` (its description, further lines after those two).
 */
export function buildModuleA(db: Db, upc: readonly string[], more: Pick<ModuleSpec, 'moduleDescription' | 'skus'> = {}) {
  const skus = [{ upc: upc[0]!, mustHave: true, minValue: 1 }, { upc: upc[1]!, mustHave: false, minValue: 2 }, ...(more.skus ?? [])];
  return buildModule(db, { moduleName: 'MOD_A', ...more, skus });
}

/** A fresh app for version tests with `users`; the test builds its items with `inTx`. */
export async function buildVersionsApp<User extends string>(users: Readonly<Record<User, TestUser>>): Promise<VersionsApp<User>> {
  const test = await buildTestApp({ reference: true, users, manualJobs: true, tempDataDir: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } });
  const { app, db } = test;
  const upc: string[] = [];
  for (let i = 0; i < 5; i++) upc.push((await buildSku(db)).upc);
  const h = {} as Record<User, AuthHeader>;
  for (const u of Object.keys(users) as User[]) h[u] = await test.as(u);
  return { app, db, h, upc, inTx: (build) => db.transaction((tx) => build(tx as unknown as Db)) };
}
