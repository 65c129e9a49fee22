import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { clientClassifications, templates } from '../../src/db/schema.js';
import { buildCluster, buildModule, buildSku, buildStore } from '../builders.js';
import { testDatabase } from '../test-database.js';
import { buildTestApp } from '../test-app.js';
import { listApiRoutes, type ApiRoute } from './openapi-routes.js';
import type { Hints } from './fuzz-inputs.js';

/**
 * The routes of /api/openapi.json, read while the test file is collected (so that each route gets a
 * test of its own). The app is built on the worker's database without emptying it and touches nothing
 * but the token secret; the tests build their own world afterwards.
 */
export async function routesAtCollection(): Promise<ApiRoute[]> {
  const database = await testDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent' }, { WEB_DIST_DIR: '/nonexistent-web-dist' });
  const app = await buildApp({ config, database, logger: false });
  try {
    return await listApiRoutes(app);
  } finally {
    await app.close();
  }
}

export interface FuzzWorld {
  app: FastifyInstance;
  admin: { authorization: string };
  hints: Hints;
}

/**
 * A small world for the fuzzer: the reference data, an admin (who calls everything), another user
 * (the target of the user calls, so the admin never disables or demotes itself), two SKUs, a module,
 * a cluster with a store, a classification. Hints hand their keys to the generators.
 */
export async function buildFuzzWorld(dataDir: string): Promise<FuzzWorld> {
  // Jobs run by the suite (a copy waits for its job) write their files there, not under the repository.
  const { app, db, as, users } = await buildTestApp({
    config: { DATA_DIR: dataDir },
    reference: true,
    users: { admin: { role: 'ADMIN' }, target: { role: 'EDITOR', grants: { edit: { brands: ['AUR'], zones: ['EU'] } } } },
  });
  const target = users.target;
  const sku1 = await buildSku(db);
  const sku2 = await buildSku(db);
  await buildModule(db, { moduleName: 'MOD1', skus: [{ upc: sku1.upc }, { upc: sku2.upc, mustHave: false }] });
  const store = await buildStore(db, 'IT');
  await buildCluster(db, { clusterId: 'CL1', storeJdas: [store.storeJda], modules: [{ moduleName: 'MOD1' }] });
  const [classification] = await db.insert(clientClassifications).values({ classificationLabel: 'GOLDEN' }).returning();
  const templateRows = await db.select({ id: templates.templateId }).from(templates);
  const admin = await as('admin');
  const hints: Hints = {
    moduleName: ['MOD1'],
    clusterId: ['CL1'],
    monthId: ['M01_2027', 'M02_2027'],
    monthIdFrom: ['M01_2027'],
    currentMonthId: ['M01_2027'],
    destinationMonthList: ['M02_2027'],
    brand: ['AUR'],
    brandCode: ['AUR'],
    collection: ['SUN'],
    macroFamily: ['PILOT'],
    starZones: ['EU'],
    starsZone: ['EU'],
    zones: ['EU'],
    country: ['IT'],
    lias: ['LIA01'],
    liaCode: ['LIA01'],
    planningChannel: ['RETAIL'],
    upc: [sku1.upc, sku2.upc],
    codiceStoreSap: [store.codiceStoreSap],
    storeJda: [store.storeJda],
    starsCustomer: [store.starsCustomer],
    customerSegmentation: ['GOLD'],
    releaseId: ['R2027'],
    userId: [target.userId],
    view: [target.userId],
    edit: [target.userId],
    submit: [target.userId],
    classificationId: [classification!.classificationId],
    classifications: [classification!.classificationId],
    templateId: templateRows.map((t) => t.id),
    templatesType: ['modulo', 'cluster'],
    moduleLabel: ['MOD1 label'],
    clusterLabel: ['CL1 label'],
    username: ['nobody'],
    email: ['someone@example.com'],
    grantCode: ['AUR'],
    id: [1],
    viewType: ['module', 'cluster'],
    keys: ['brand,collection', 'monthId'],
    purpose: ['copy', 'delete'],
  };
  return { app, admin, hints };
}
