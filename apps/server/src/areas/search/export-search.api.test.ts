import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { clusterExportResultSchema, EXPORT_SEARCH_TEXTS, moduleExportResultSchema } from '@bo/shared/export-search';
import { filterOptionsSchema, type FilterOptions } from '@bo/shared/search';
import { AUR_EU, buildCluster, buildModule, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import type { Config } from '../../config.js';
import { modules } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  // Views both brands everywhere, exports (edit) AUR in the EU only.
  editor: { grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] }, edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

const M1 = 'M01_2027';
const M2 = 'M02_2027';

let t: TestApp<User>;
let stores: { it1: string; fr1: string };

/**
 * M01_2027 modules: AUR_S1 (SUBMITTED, PILOT, SUN, EU), AUR_S2 (SUBMITTED, ROUND, OPTICAL, EU), AUR_W1
 * (WIP, PILOT, SUN, EU), AUR_NA (SUBMITTED, NA only), VLT_S1 (SUBMITTED, VLT), AUR_DEL (SUBMITTED, pending
 * deletion); M02_2027: AUR_S1 (SUBMITTED).
 * M01_2027 clusters: CL_A (AUR SUBMITTED, IT, holds AUR_S1), CL_B (AUR WIP, FR, holds AUR_S2 and, removed,
 * AUR_S1), CL_V (VLT SUBMITTED, IT).
 */
async function buildWorld(config: Partial<Config> = {}) {
  t = await buildTestApp({ reference: true, users: USERS, config });
  const db = t.db;
  await buildModule(db, { moduleName: 'AUR_S1', status: 'SUBMITTED' });
  await buildModule(db, { moduleName: 'AUR_S2', status: 'SUBMITTED', macroFamily: 'ROUND', collection: 'OPTICAL' });
  await buildModule(db, { moduleName: 'AUR_W1', status: 'WIP' });
  await buildModule(db, { moduleName: 'AUR_NA', status: 'SUBMITTED', zones: ['NA'] });
  await buildModule(db, { moduleName: 'VLT_S1', status: 'SUBMITTED', brandCode: 'VLT' });
  const deleted = await buildModule(db, { moduleName: 'AUR_DEL', status: 'SUBMITTED' });
  await db.update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.id, deleted.id));
  await buildModule(db, { moduleName: 'AUR_S1', status: 'SUBMITTED', monthId: M2 });
  const it1 = await buildStore(db, 'IT');
  const fr1 = await buildStore(db, 'FR');
  await buildCluster(db, { clusterId: 'CL_A', status: 'SUBMITTED', storeJdas: [it1.storeJda], modules: [{ moduleName: 'AUR_S1' }] });
  await buildCluster(db, {
    clusterId: 'CL_B',
    countries: ['FR'],
    storeJdas: [fr1.storeJda],
    modules: [{ moduleName: 'AUR_S2' }, { moduleName: 'AUR_S1', status: 'REMOVED' }],
  });
  await buildCluster(db, { clusterId: 'CL_V', status: 'SUBMITTED', brandCode: 'VLT', storeJdas: [it1.storeJda] });
  stores = { it1: it1.storeJda, fr1: fr1.storeJda };
}

afterEach(async () => {
  await t?.app.close();
});

const post = async (user: User, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: await t.as(user), payload });

async function searchModules(user: User, body: object) {
  const res = await post(user, '/api/module/exportSearch', body);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(moduleExportResultSchema).parse(res.json()).map((m) => `${m.moduleName}@${m.monthId}`);
}
async function searchClusters(user: User, body: object) {
  const res = await post(user, '/api/cluster/exportSearch', body);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(clusterExportResultSchema).parse(res.json()).map((c) => c.clusterId);
}
async function options(user: User, kind: 'module' | 'cluster', body: object, keys?: string): Promise<FilterOptions> {
  const res = await t.app.inject({ method: 'POST', url: `/api/${kind}/exportFilters`, query: keys ? { keys } : {}, headers: await t.as(user), payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return filterOptionsSchema.parse(res.json());
}
const values = (o: FilterOptions, key: keyof FilterOptions) => (o[key] ?? []).map((x) => x.value);

describe('POST /api/module/exportSearch', () => {
  beforeEach(async () => {
    await buildWorld();
  });

  it('lists the exportable modules of the month: Published (default) = SUBMITTED, Saved = not yet published, both = all', async () => {
    expect(await searchModules('editor', { monthId: [M1] })).toEqual(['AUR_S1@M01_2027', 'AUR_S2@M01_2027']);
    expect(await searchModules('editor', { monthId: [M1], status: ['Saved'] })).toEqual(['AUR_W1@M01_2027']);
    expect(await searchModules('editor', { monthId: [M1], status: ['Published', 'Saved'] })).toEqual(['AUR_S1@M01_2027', 'AUR_S2@M01_2027', 'AUR_W1@M01_2027']);
    expect(await searchModules('editor', { monthId: [M2] })).toEqual(['AUR_S1@M02_2027']);
    expect(await searchModules('editor', { monthId: [M1, M2], moduleLabel: ['aur_s1'] })).toEqual(['AUR_S1@M01_2027', 'AUR_S1@M02_2027']);
  });

  it('answers the fields the results list shows', async () => {
    const res = await post('editor', '/api/module/exportSearch', { monthId: [M1], macroFamily: ['ROUND'] });
    expect(res.json()).toEqual([
      {
        moduleName: 'AUR_S2',
        moduleLabel: 'AUR_S2 label',
        monthId: M1,
        macroFamily: 'ROUND',
        brand: 'AUR',
        collection: 'OPTICAL',
        planningChannel: null,
        starZones: ['EU'],
        status: 'SUBMITTED',
        newModule: false,
        legoMonth: false,
        length: 0,
        elLength: 0,
      },
    ]);
  });

  it('lists only what the caller may export: an admin everything live, a viewer nothing (403)', async () => {
    expect(await searchModules('admin', { monthId: [M1] })).toEqual(['AUR_NA@M01_2027', 'AUR_S1@M01_2027', 'AUR_S2@M01_2027', 'VLT_S1@M01_2027']);
    for (const url of ['/api/module/exportSearch', '/api/cluster/exportSearch', '/api/module/exportFilters', '/api/cluster/exportFilters']) {
      const res = await post('viewer', url, { monthId: [M1] });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'forbidden', message: EXPORT_SEARCH_TEXTS.noRight });
    }
  });

  it('needs a month (part 2 §5) and known statuses', async () => {
    for (const body of [{}, { monthId: [] }, { brand: ['AUR'] }, { monthId: [M1], status: [] }, { monthId: [M1], status: ['Draft'] }, { monthId: ['2027-01'] }]) {
      const res = await post('editor', '/api/module/exportSearch', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('keeps the modules ADDED in a cluster matching the cluster filters', async () => {
    expect(await searchModules('editor', { monthId: [M1], clusterId: ['CL_A'] })).toEqual(['AUR_S1@M01_2027']);
    // AUR_S1 is REMOVED from CL_B: only AUR_S2 sits in it.
    expect(await searchModules('editor', { monthId: [M1], clusterId: ['CL_B'] })).toEqual(['AUR_S2@M01_2027']);
    // A country filters the module itself (its zones: FR is in the EU), the cluster label its cluster.
    expect(await searchModules('editor', { monthId: [M1], country: ['FR'], clusterLabel: ['cl_b'] })).toEqual(['AUR_S2@M01_2027']);
    expect(await searchModules('editor', { monthId: [M1], country: ['US'], clusterLabel: ['cl_b'] })).toEqual([]);
    expect(await searchModules('editor', { monthId: [M1], clusterLabel: ['cl_'], macroFamily: ['PILOT'] })).toEqual(['AUR_S1@M01_2027']);
  });

  it('answers an empty list for a month without exportable modules', async () => {
    expect(await searchModules('editor', { monthId: ['M10_2027'] })).toEqual([]);
  });
});

describe('POST /api/cluster/exportSearch', () => {
  beforeEach(async () => {
    await buildWorld();
  });

  it('lists the exportable clusters by month and status', async () => {
    expect(await searchClusters('editor', { monthId: [M1] })).toEqual(['CL_A']);
    expect(await searchClusters('editor', { monthId: [M1], status: ['Saved'] })).toEqual(['CL_B']);
    expect(await searchClusters('editor', { monthId: [M1], status: ['Saved', 'Published'] })).toEqual(['CL_A', 'CL_B']);
    expect(await searchClusters('admin', { monthId: [M1] })).toEqual(['CL_A', 'CL_V']);
    expect(await searchClusters('editor', { monthId: [M2] })).toEqual([]);
  });

  it('keeps the clusters holding a module that matches the module filters', async () => {
    const both = ['Published', 'Saved'];
    expect(await searchClusters('editor', { monthId: [M1], status: both, macroFamily: ['ROUND'] })).toEqual(['CL_B']);
    expect(await searchClusters('editor', { monthId: [M1], status: both, moduleLabel: ['AUR_S1'] })).toEqual(['CL_A']);
    expect(await searchClusters('editor', { monthId: [M1], status: both, country: ['FR'], macroFamily: ['PILOT'] })).toEqual([]);
  });

  it('answers 413 with the spec text past MAX_SEARCH_RESULTS', async () => {
    await t.app.close();
    await buildWorld({ MAX_SEARCH_RESULTS: 1 });
    const res = await post('editor', '/api/cluster/exportSearch', { monthId: [M1], status: ['Published', 'Saved'] });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'tooManyResults', message: EXPORT_SEARCH_TEXTS.tooManyResults });
    const modulesRes = await post('editor', '/api/module/exportSearch', { monthId: [M1] });
    expect(modulesRes.statusCode).toBe(413);
    expect(await searchModules('editor', { monthId: [M1], collection: ['OPTICAL'] })).toEqual(['AUR_S2@M01_2027']);
  });
});

describe('POST /api/{module|cluster}/exportFilters', () => {
  beforeEach(async () => {
    await buildWorld();
  });

  it('offers every export filter, narrowed by the others, each keeping its own alternatives', async () => {
    const all = await options('editor', 'module', { monthId: [M1] });
    expect(Object.keys(all).sort()).toEqual(
      ['brand', 'clientClassification', 'clusterId', 'clusterLabel', 'codiceStoreSap', 'collection', 'country', 'customerSegmentation', 'macroFamily', 'monthId', 'moduleLabel', 'newModule', 'planningChannel', 'rangeFacing', 'starsCustomer', 'storeJda'].sort(),
    );
    expect(values(all, 'monthId')).toEqual([M1, M2]);
    expect(values(all, 'brand')).toEqual(['AUR']);
    expect(all.brand).toEqual([{ value: 'AUR', label: 'Aurora Optics' }]);
    expect(values(all, 'collection')).toEqual(['OPTICAL', 'SUN']);
    expect(values(all, 'macroFamily')).toEqual(['PILOT', 'ROUND']);
    expect(values(all, 'moduleLabel')).toEqual(['AUR_S1 label', 'AUR_S2 label']);
    expect(all.clusterId).toEqual([
      { value: 'CL_A', label: 'CL_A label' },
      { value: 'CL_B', label: 'CL_B label' },
    ]);
    expect(values(all, 'country')).toEqual(['FR', 'IT']);

    const round = await options('editor', 'module', { monthId: [M1], macroFamily: ['ROUND'] });
    expect(values(round, 'collection')).toEqual(['OPTICAL']);
    expect(values(round, 'macroFamily')).toEqual(['PILOT', 'ROUND']);
    expect(values(round, 'clusterId')).toEqual(['CL_B']);
    expect(values(round, 'moduleLabel')).toEqual(['AUR_S2 label']);

    const inA = await options('editor', 'module', { monthId: [M1], clusterId: ['CL_A'] });
    expect(values(inA, 'macroFamily')).toEqual(['PILOT']);
    expect(values(inA, 'clusterId')).toEqual(['CL_A', 'CL_B']);
  });

  it('narrows by status: Saved offers what the saved items carry', async () => {
    const saved = await options('editor', 'module', { monthId: [M1], status: ['Saved'] }, 'collection,macroFamily,clusterId');
    expect(Object.keys(saved).sort()).toEqual(['clusterId', 'collection', 'macroFamily']);
    expect(values(saved, 'macroFamily')).toEqual(['PILOT']);
    expect(values(saved, 'clusterId')).toEqual([]);
  });

  it('offers cluster options among exportable clusters, and module options among the modules they hold', async () => {
    const { it1, fr1 } = stores;
    const published = await options('editor', 'cluster', { monthId: [M1] });
    expect(values(published, 'clusterId')).toEqual(['CL_A']);
    expect(values(published, 'storeJda')).toEqual([it1]);
    expect(values(published, 'macroFamily')).toEqual(['PILOT']);
    const saved = await options('editor', 'cluster', { monthId: [M1], status: ['Saved'] });
    expect(values(saved, 'storeJda')).toEqual([fr1]);
    expect(values(saved, 'macroFamily')).toEqual(['ROUND']);
    const admin = await options('admin', 'cluster', { monthId: [M1] });
    expect(values(admin, 'brand')).toEqual(['AUR', 'VLT']);
    expect(values(admin, 'clusterId')).toEqual(['CL_A', 'CL_V']);
    const vlt = await options('admin', 'cluster', { monthId: [M1], brand: ['VLT'] });
    expect(values(vlt, 'clusterId')).toEqual(['CL_V']);
    expect(values(vlt, 'brand')).toEqual(['AUR', 'VLT']);
  });
});
