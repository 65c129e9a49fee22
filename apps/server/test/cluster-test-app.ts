import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client.js';
import { clientClassifications, clusterClassifications, lias, locks, modules } from '../src/db/schema.js';
import { AUR_EU, buildCluster, buildModule, buildReference, buildSku, buildStore, buildUser } from './builders.js';
import { buildTestApp, type TestApp, type TestAppSpec, type TestUsers } from './test-app.js';

/**
 * The options of a cluster test app: an outbox gateway in a temp dir with no delay, and a job runner
 * that only runs jobs when the test says so (`app.jobs.drain()` or `withJobRunner`).
 */
export const CLUSTER_TEST_APP = { tempDataDir: true, manualJobs: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } } as const satisfies TestAppSpec;

/** A bare cluster test app (see CLUSTER_TEST_APP). Prefer buildClusterWorldApp, or buildTestApp({ ...CLUSTER_TEST_APP, … }). */
export async function buildClusterTestApp(): Promise<{ app: FastifyInstance; dataDir: string }> {
  const { app, dataDir } = await buildTestApp(CLUSTER_TEST_APP);
  return { app, dataDir };
}

/** Runs `work` while a stand-in worker drains the job queue (the copy call waits for its job). */
export async function withJobRunner<T>(app: FastifyInstance, work: Promise<T>): Promise<T> {
  let done = false;
  const pump = (async () => {
    while (!done) {
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    await pump;
  }
}

export async function lockRow(db: Db, clusterId: string, monthId: string, owner: string, renewedAt = new Date()) {
  await db.insert(locks).values({ itemType: 'cluster', itemKey: clusterId, monthId, owner, acquiredAt: renewedAt, renewedAt });
}

/**
 * The users of the cluster world: admin; editor and editor2 (view+edit AUR/EU); submitter (view+edit+submit AUR/EU);
 * pubonly (view+submit AUR/EU, no edit); viewer (view AUR+VLT/EU); creator, creatorsub and pcreator (creators
 * with edit; with submit; with submit on VLT only); naeditor (view+edit AUR/NA).
 */
export const CLUSTER_WORLD_USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  editor2: { grants: { view: AUR_EU, edit: AUR_EU } },
  submitter: { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
  pubonly: { role: 'SUBMITTER', grants: { view: AUR_EU, submit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] } } },
  // Copy is for admins and creators (part 2 §6): Save with edit, Save & Publish with submit.
  creator: { role: 'CREATOR', grants: { view: AUR_EU, edit: AUR_EU } },
  creatorsub: { role: 'CREATOR', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
  pcreator: { role: 'CREATOR', grants: { view: AUR_EU, edit: AUR_EU, submit: { brands: ['VLT'], zones: ['EU'] } } },
  naeditor: { grants: { view: { brands: ['AUR'], zones: ['NA'] }, edit: { brands: ['AUR'], zones: ['NA'] } } },
} as const satisfies TestUsers;
export type ClusterWorldUser = keyof typeof CLUSTER_WORLD_USERS;
export type ClusterWorld = Awaited<ReturnType<typeof buildClusterWorldItems>>;

/**
 * The cluster world of the tests on a cluster test app (CLUSTER_TEST_APP): the reference data, the users of
 * CLUSTER_WORLD_USERS (`as(user)` logs them in) and the items of buildClusterWorldItems (`world`).
 */
export async function buildClusterWorldApp(): Promise<TestApp<ClusterWorldUser> & { world: ClusterWorld }> {
  const test = await buildTestApp({ ...CLUSTER_TEST_APP, reference: true, users: CLUSTER_WORLD_USERS });
  return { ...test, world: await buildClusterWorldItems(test.db) };
}

/** The whole cluster world (reference data, CLUSTER_WORLD_USERS, items) on any database. Prefer buildClusterWorldApp. */
export async function buildClusterWorld(db: Db): Promise<ClusterWorld> {
  await buildReference(db);
  for (const [username, user] of Object.entries(CLUSTER_WORLD_USERS)) await buildUser(db, { ...user, username });
  return buildClusterWorldItems(db);
}

/**
 * The items of the cluster world, on the reference data of buildReference:
 * - LIA02, classifications VIP and TOP_10;
 * - M01_2027 modules A1, A2, A3 (AUR, SUBMITTED), W1 (AUR, WIP), V1 (VLT), D1 (AUR, deleted); M02_2027 and M10_2027: A1.
 * - clusters in M01_2027: C1 (IT, 2 stores, A1+A2 ADDED, A3 REMOVED, LIA01, VIP), C2 (same ADDED set as C1),
 *   C3 (A1 only), CUS (country US, NA zone), CV (brand VLT); C1 also in M02_2027 and M10_2027 (SUBMITTED).
 */
export async function buildClusterWorldItems(db: Db) {
  await db.insert(lias).values([{ liaCode: 'LIA02', planningChannelId: 'RETAIL' }]);
  const [vip] = await db.insert(clientClassifications).values([{ classificationLabel: 'VIP' }, { classificationLabel: 'TOP_10' }]).returning();

  const s1 = await buildSku(db);
  const s2 = await buildSku(db);
  const s3 = await buildSku(db);
  const a1 = await buildModule(db, { moduleName: 'A1', status: 'SUBMITTED', skus: [{ upc: s1.upc }, { upc: s2.upc }] });
  await buildModule(db, { moduleName: 'A2', status: 'SUBMITTED', macroFamily: 'ROUND', skus: [{ upc: s2.upc }, { upc: s3.upc, status: 'REMOVED' }] });
  await buildModule(db, { moduleName: 'A3', status: 'SUBMITTED' });
  await buildModule(db, { moduleName: 'W1', status: 'WIP' });
  await buildModule(db, { moduleName: 'V1', status: 'SUBMITTED', brandCode: 'VLT' });
  const d1 = await buildModule(db, { moduleName: 'D1', status: 'SUBMITTED' });
  await buildModule(db, { moduleName: 'A1', monthId: 'M02_2027', status: 'SUBMITTED' });
  await buildModule(db, { moduleName: 'A1', monthId: 'M10_2027', status: 'SUBMITTED' });
  await db.update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.id, d1.id));

  const st1 = await buildStore(db, 'IT');
  const st2 = await buildStore(db, 'IT');
  const stUs = await buildStore(db, 'US');
  const c1Modules = [{ moduleName: 'A1' }, { moduleName: 'A2' }, { moduleName: 'A3', status: 'REMOVED' as const }];
  const c1 = await buildCluster(db, { clusterId: 'C1', storeJdas: [st1.storeJda, st2.storeJda], modules: c1Modules, clusterDescription: 'First' });
  await buildCluster(db, { clusterId: 'C2', storeJdas: [st1.storeJda], modules: [{ moduleName: 'A1' }, { moduleName: 'A2' }] });
  await buildCluster(db, { clusterId: 'C3', storeJdas: [st1.storeJda], modules: [{ moduleName: 'A1' }] });
  await buildCluster(db, { clusterId: 'CUS', countries: ['US'], zones: ['NA'], storeJdas: [stUs.storeJda], modules: [{ moduleName: 'A1' }] });
  await buildCluster(db, { clusterId: 'CV', brandCode: 'VLT', storeJdas: [st1.storeJda], modules: [{ moduleName: 'V1' }] });
  await buildCluster(db, { clusterId: 'C1', monthId: 'M02_2027', storeJdas: [st1.storeJda], modules: [{ moduleName: 'A1' }] });
  await buildCluster(db, { clusterId: 'C1', monthId: 'M10_2027', status: 'SUBMITTED', clusterDescription: 'October', modules: [{ moduleName: 'A1' }] });
  await db.insert(clusterClassifications).values({ clusterPk: c1.id, classificationId: vip!.classificationId });
  return { stores: { st1, st2, stUs }, skus: { s1, s2, s3 }, a1, vip: vip!, c1 };
}
