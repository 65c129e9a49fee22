import { and, eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { clusters, modules } from '../src/db/schema.js';
import { buildCluster, buildModule, type ClusterSpec, type ModuleSpec } from './builders.js';
import { buildTestApp, type TestApp, type TestUsers } from './test-app.js';

/** The Deletion Area's clock in the tests: January 2027 (M01_2027), so every reference month is in the window. */
export const TEST_NOW = new Date('2027-01-15T12:00:00Z');

/**
 * The users of the deletion tests: admin; an editor without the delete rule; a deleter (edit + delete
 * rule on AUR/EU, view on both brands); a submitter with the delete rule; a viewer of AUR/EU; another editor
 * without view.
 */
export const DELETION_USERS = {
  admin: { role: 'ADMIN' },
  editor: {
    grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] }, edit: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'], rules: ['create'] } },
  },
  deleter: {
    grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] }, edit: { brands: ['AUR'], zones: ['EU'], rules: ['delete'] } },
  },
  submitter: { role: 'SUBMITTER', grants: { submit: { brands: ['AUR'], zones: ['EU'], rules: ['delete'] } } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR'], zones: ['EU'] } } },
  other: { grants: { edit: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] } } },
} as const satisfies TestUsers;
export type DeletionUser = keyof typeof DELETION_USERS;

/** A test app with the deletion routes (window clock fixed at `now`), the reference world and DELETION_USERS. */
export function buildDeletionApp(now: Date = TEST_NOW): Promise<TestApp<DeletionUser>> {
  return buildTestApp({ now: () => now, reference: true, users: DELETION_USERS });
}

/** The same module in several months. */
export async function buildModuleInMonths(db: Db, spec: Omit<ModuleSpec, 'monthId'>, monthIds: readonly string[]) {
  for (const monthId of monthIds) await buildModule(db, { ...spec, monthId });
}

/** The same cluster in several months. */
export async function buildClusterInMonths(db: Db, spec: Omit<ClusterSpec, 'monthId'>, monthIds: readonly string[]) {
  for (const monthId of monthIds) await buildCluster(db, { ...spec, monthId });
}

/** Deletion status per month of a module, e.g. { M01_2027: null, M02_2027: 'DELETION_PENDING' }. */
export async function moduleStatuses(db: Db, moduleName: string): Promise<Record<string, string | null>> {
  const rows = await db.select({ monthId: modules.monthId, s: modules.deletionStatus }).from(modules).where(eq(modules.moduleName, moduleName));
  return Object.fromEntries(rows.map((r) => [r.monthId, r.s]));
}

export async function clusterStatuses(db: Db, clusterId: string): Promise<Record<string, string | null>> {
  const rows = await db.select({ monthId: clusters.monthId, s: clusters.deletionStatus }).from(clusters).where(eq(clusters.clusterId, clusterId));
  return Object.fromEntries(rows.map((r) => [r.monthId, r.s]));
}

export async function setModuleDeletionStatus(db: Db, moduleName: string, monthId: string, status: string | null) {
  await db
    .update(modules)
    .set({ deletionStatus: status })
    .where(and(eq(modules.moduleName, moduleName), eq(modules.monthId, monthId)));
}
