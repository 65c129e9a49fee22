import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { clusterListItemSchema, macroFamilyGroupSchema, moduleListItemSchema } from '@bo/shared/search';
import { AUR_EU, buildCluster, buildFamily, buildModule, buildSku, buildStore, type ModuleSpec } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import type { Config } from '../../config.js';
import { clientClassifications, clusterClassifications, clusters, locks, modules } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  eu: { grants: { view: AUR_EU } },
  na: { grants: { view: { brands: ['AUR', 'VLT'], zones: ['NA'] } } },
  vlt: { grants: { view: { brands: ['VLT'], zones: ['EU', 'NA'] }, edit: { brands: ['VLT'], zones: ['EU'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
const db = () => app.database.db;

/**
 * M01_2027: AUR SUN EU (PILOT, BEST SELLERS, NEWNESS), AUR OPTICAL EU+NA, AUR SUN NA only, VLT SUN EU,
 * a zone-less AUR module, a deleted AUR module, labels with %, _ and \; M02_2027: one AUR module.
 * Clusters in M01_2027: CL_IT (AUR SUN, IT/EU), CL_US (AUR SUN, US/NA), CL_VLT (VLT, IT), CL_DEL (deleted).
 */
async function buildWorld(overrides: Partial<Config> = {}) {
  ({ app, as } = await buildTestApp({ config: overrides, reference: true, users: USERS }));
  await buildFamily(db(), 'BEST SELLERS', 'BEST_SELLER');
  await buildFamily(db(), 'NEWNESS', 'NEWNESS');

  const sku = await buildSku(db());
  const sku2 = await buildSku(db());
  const mod = async (moduleName: string, label: string, spec: Omit<ModuleSpec, 'moduleName'> = {}) => {
    const row = await buildModule(db(), { ...spec, moduleName });
    await db().update(modules).set({ moduleLabel: label }).where(eq(modules.id, row.id));
    return row;
  };
  await mod('AUR_SUN_PILOT_01', 'Aurora Sun Pilot 01', {
    skus: [{ upc: sku.upc, mustHave: true }, { upc: sku2.upc, mustHave: false }],
  });
  await mod('AUR_SUN_BEST_01', 'Aurora Sun Best 01', { macroFamily: 'BEST SELLERS' });
  await mod('AUR_SUN_NEW_01', 'Aurora Sun New 01', { macroFamily: 'NEWNESS' });
  await mod('AUR_OPT_ROUND_01', 'Aurora Optical Round 01', { collection: 'OPTICAL', macroFamily: 'ROUND', zones: ['EU', 'NA'] });
  await mod('AUR_SUN_NA_01', 'Aurora Sun Na 01', { zones: ['NA'] });
  await mod('VLT_SUN_01', 'Velto Sun 01', { brandCode: 'VLT' });
  await mod('AUR_NOZONE', 'Aurora no zone', { zones: [] });
  await mod('PCT', 'Promo 50% off');
  await mod('UNDER', 'Under_score');
  await mod('UNDERX', 'UnderXscore');
  await mod('SLASH', 'Back\\slash');
  const deleted = await mod('AUR_DELETED', 'Aurora Sun deleted');
  await db().update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.id, deleted.id));
  await mod('AUR_SUN_PILOT_01', 'Aurora Sun Pilot 01', { monthId: 'M02_2027' });
  await db().update(modules).set({ planningChannelId: 'RETAIL' }).where(eq(modules.moduleName, 'AUR_SUN_PILOT_01'));

  const it1 = await buildStore(db(), 'IT');
  const us1 = await buildStore(db(), 'US');
  await buildCluster(db(), { clusterId: 'CL_IT', storeJdas: [it1.storeJda], modules: [{ moduleName: 'AUR_SUN_PILOT_01' }] });
  await buildCluster(db(), { clusterId: 'CL_US', countries: ['US'], zones: ['NA'], storeJdas: [us1.storeJda] });
  await buildCluster(db(), { clusterId: 'CL_VLT', brandCode: 'VLT', storeJdas: [it1.storeJda] });
  const del = await buildCluster(db(), { clusterId: 'CL_DEL' });
  await db().update(clusters).set({ deletionStatus: 'DELETED' }).where(eq(clusters.id, del.id));
  const [vip] = await db().insert(clientClassifications).values({ classificationLabel: 'VIP' }).returning();
  const clIt = await db().select().from(clusters).where(eq(clusters.clusterId, 'CL_IT'));
  await db().insert(clusterClassifications).values({ clusterPk: clIt[0]!.id, classificationId: vip!.classificationId });

  return { it1, us1 };
}

afterEach(async () => {
  await app.close();
});

const post = async (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: await as(user), payload: payload as object });
// The list routes write their answers without re-checking them at run time: every answer is checked here.
const moduleNames = async (user: User, filters: object) => {
  const res = await post('/api/module/filtered', user, filters);
  expect(res.statusCode).toBe(200);
  return z.array(moduleListItemSchema).parse(res.json()).map((m) => m.moduleName).sort();
};
const clusterIds = async (user: User, filters: object) => {
  const res = await post('/api/cluster/filtered', user, filters);
  expect(res.statusCode).toBe(200);
  return z.array(clusterListItemSchema).parse(res.json()).map((c) => c.clusterId).sort();
};
const M01 = { monthId: ['M01_2027'] };

describe('filter semantics', () => {
  let stores: Awaited<ReturnType<typeof buildWorld>>;
  beforeEach(async () => {
    stores = await buildWorld();
  });

  it('combines filters by intersection and the values of one filter by union', async () => {
    expect(await moduleNames('admin', { ...M01, brand: ['VLT'] })).toEqual(['VLT_SUN_01']);
    expect(await moduleNames('admin', { ...M01, brand: ['AUR'], collection: ['OPTICAL'] })).toEqual(['AUR_OPT_ROUND_01']);
    expect(await moduleNames('admin', { ...M01, brand: ['AUR', 'VLT'], collection: ['OPTICAL'] })).toEqual(['AUR_OPT_ROUND_01']);
    expect(await moduleNames('admin', { ...M01, collection: ['OPTICAL', 'SUN'], starsZone: ['NA'] })).toEqual(['AUR_OPT_ROUND_01', 'AUR_SUN_NA_01']);
    expect(await moduleNames('admin', { ...M01, planningChannel: ['RETAIL'] })).toEqual(['AUR_SUN_PILOT_01']);
    expect(await moduleNames('admin', { monthId: ['M01_2027', 'M02_2027'], planningChannel: ['RETAIL'] })).toEqual(['AUR_SUN_PILOT_01', 'AUR_SUN_PILOT_01']);
    expect(await moduleNames('admin', { monthId: ['M02_2027'] })).toEqual(['AUR_SUN_PILOT_01']);
    expect(await moduleNames('admin', { ...M01, country: ['US'] })).toEqual(['AUR_OPT_ROUND_01', 'AUR_SUN_NA_01']);
    expect(await moduleNames('admin', { ...M01, macroFamily: ['ROUND', 'NEWNESS'] })).toEqual(['AUR_OPT_ROUND_01', 'AUR_SUN_NEW_01']);
    // A missing, null or empty list does not filter.
    expect(await moduleNames('admin', { ...M01, brand: ['VLT'], collection: [], planningChannel: null })).toEqual(['VLT_SUN_01']);
  });

  it('filters clusters by their own keys (zones, countries, stores, classifications)', async () => {
    expect(await clusterIds('admin', M01)).toEqual(['CL_IT', 'CL_US', 'CL_VLT']);
    expect(await clusterIds('admin', { ...M01, brand: ['AUR'], starsZone: ['NA'] })).toEqual(['CL_US']);
    expect(await clusterIds('admin', { ...M01, country: ['IT', 'US'], brand: ['AUR'] })).toEqual(['CL_IT', 'CL_US']);
    expect(await clusterIds('admin', { ...M01, codiceStoreSap: [stores.it1.codiceStoreSap] })).toEqual(['CL_IT', 'CL_VLT']);
    expect(await clusterIds('admin', { ...M01, starsCustomer: [stores.us1.starsCustomer] })).toEqual(['CL_US']);
    expect(await clusterIds('admin', { ...M01, clientClassification: ['VIP'] })).toEqual(['CL_IT']);
    expect(await clusterIds('admin', { ...M01, clusterId: ['CL_US', 'NOPE'] })).toEqual(['CL_US']);
    // Keys that describe modules only do not narrow clusters (and the other way round).
    expect(await clusterIds('admin', { ...M01, brand: ['VLT'], macroFamily: ['PILOT'] })).toEqual(['CL_VLT']);
    expect(await moduleNames('admin', { ...M01, brand: ['VLT'], clusterId: ['CL_IT'] })).toEqual(['VLT_SUN_01']);
    // A module serves the stars customers of the clusters that hold it.
    expect(await moduleNames('admin', { ...M01, starsCustomer: [stores.it1.starsCustomer] })).toEqual(['AUR_SUN_PILOT_01']);
  });

  it('searches text case-insensitively, in labels and names, with %, _ and \\ taken literally', async () => {
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['PILOT'] })).toEqual(['AUR_SUN_PILOT_01']);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['aurora sun p'] })).toEqual(['AUR_SUN_PILOT_01']);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['%'] })).toEqual(['PCT']);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['50%'] })).toEqual(['PCT']);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['under_score'] })).toEqual(['UNDER']);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['\\'] })).toEqual(['SLASH']);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ["'; DROP TABLE modules; --"] })).toEqual([]);
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['sun_pilot', 'velto'] })).toEqual(['AUR_SUN_PILOT_01', 'VLT_SUN_01']);
    expect(await clusterIds('admin', { ...M01, clusterLabel: ['cl_us label'] })).toEqual(['CL_US']);
    expect(await clusterIds('admin', { ...M01, clusterLabel: ['_'] })).toEqual(['CL_IT', 'CL_US', 'CL_VLT']);
    expect(await clusterIds('admin', { ...M01, clusterLabel: ['%'] })).toEqual([]);
  });

  it("lists only what the caller's grants show (brand and one of the item's zones; brand alone without zones)", async () => {
    const eu = await moduleNames('eu', M01);
    expect(eu).toEqual(['AUR_NOZONE', 'AUR_OPT_ROUND_01', 'AUR_SUN_BEST_01', 'AUR_SUN_NEW_01', 'AUR_SUN_PILOT_01', 'PCT', 'SLASH', 'UNDER', 'UNDERX']);
    expect(await moduleNames('na', M01)).toEqual(['AUR_NOZONE', 'AUR_OPT_ROUND_01', 'AUR_SUN_NA_01']);
    expect(await moduleNames('vlt', M01)).toEqual(['VLT_SUN_01']);
    expect(await clusterIds('eu', M01)).toEqual(['CL_IT']);
    expect(await clusterIds('na', M01)).toEqual(['CL_US']);
    expect(await clusterIds('vlt', M01)).toEqual(['CL_VLT']);
    // Counts agree with the lists.
    expect((await post('/api/module/filteredDry', 'na', M01)).json()).toEqual({ count: 3 });
    expect((await post('/api/cluster/filteredDry', 'eu', M01)).json()).toEqual({ count: 1 });
  });

  it('never lists deleted items, in lists, counts and options', async () => {
    expect(await moduleNames('admin', { ...M01, moduleLabel: ['deleted'] })).toEqual([]);
    expect(await clusterIds('admin', { clusterId: ['CL_DEL'] })).toEqual([]);
    expect((await post('/api/module/filteredDry', 'admin', { moduleLabel: ['deleted'] })).json()).toEqual({ count: 0 });
    expect((await post('/api/cluster/filteredDry', 'admin', { clusterId: ['CL_DEL'] })).json()).toEqual({ count: 0 });
    await db().update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.brandCode, 'VLT'));
    const options = (await post('/api/module/filters?keys=brand', 'admin', M01)).json();
    expect(options).toEqual({ brand: [{ value: 'AUR', label: 'Aurora Optics' }] });
  });

  it('carries the module fields, locked and userLock on every item', async () => {
    await db().insert(locks).values([
      { itemType: 'module', itemKey: 'AUR_SUN_PILOT_01', monthId: 'M01_2027', owner: 'editor' },
      { itemType: 'cluster', itemKey: 'CL_IT', monthId: 'M01_2027', owner: 'submitter' },
      // a lapsed lock does not count
      { itemType: 'module', itemKey: 'AUR_SUN_BEST_01', monthId: 'M01_2027', owner: 'old', renewedAt: new Date(Date.now() - 1000 * 60 * 60 * 24) },
    ]);
    await db().update(modules).set({ publicationDate: new Date('2027-01-15T10:00:00Z'), status: 'SUBMITTED' }).where(eq(modules.moduleName, 'AUR_SUN_BEST_01'));
    const list = (await post('/api/module/filtered', 'admin', { ...M01, moduleLabel: ['Aurora Sun Pilot', 'Aurora Sun Best'] })).json();
    expect(list.map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_SUN_BEST_01', 'AUR_SUN_PILOT_01']);
    expect(list[0]).toMatchObject({ locked: false, userLock: null, status: 'SUBMITTED', publicationDate: '2027-01-15T10:00:00.000Z' });
    expect(list[1]).toEqual({
      moduleName: 'AUR_SUN_PILOT_01',
      moduleLabel: 'Aurora Sun Pilot 01',
      moduleDescription: '',
      monthId: 'M01_2027',
      macroFamily: 'PILOT',
      brand: 'AUR',
      collection: 'SUN',
      planningChannel: 'RETAIL',
      starZones: ['EU'],
      status: 'WIP',
      newModule: false,
      locked: true,
      userLock: 'editor',
      legoMonth: true,
      inOpenMonth: true,
      releaseClosed: false,
      door: 0,
      initialSize: null,
      rpasErrors: null,
      publicationDate: null,
      length: 1,
      elLength: 1,
      updatedBy: null,
      updatedAt: expect.any(String),
    });
    const cl = (await post('/api/cluster/filtered', 'admin', { ...M01, clusterId: ['CL_IT'] })).json();
    expect(cl).toEqual([
      expect.objectContaining({
        clusterId: 'CL_IT',
        clusterLabel: 'CL_IT label',
        brandCode: 'AUR',
        country: ['IT'],
        starZones: ['EU'],
        locked: true,
        userLock: 'submitter',
        legoMonth: true,
        door: 1,
      }),
    ]);
  });

  it('groups modules by macro family, best sellers and newness first, then alphabetical', async () => {
    const res = await post('/api/module/macroFamily', 'admin', { ...M01, brand: ['AUR'] });
    expect(res.statusCode).toBe(200);
    z.array(macroFamilyGroupSchema).parse(res.json());
    const groups = res.json() as { macroFamily: string; specialKind: string | null; moduleList: { moduleName: string }[] }[];
    expect(groups.map((g) => g.macroFamily)).toEqual(['BEST SELLERS', 'NEWNESS', 'PILOT', 'ROUND']);
    expect(groups[0]!.specialKind).toBe('BEST_SELLER');
    expect(groups.find((g) => g.macroFamily === 'PILOT')!.moduleList.map((m) => m.moduleName)).toEqual([
      'AUR_NOZONE',
      'AUR_SUN_NA_01',
      'AUR_SUN_PILOT_01',
      'SLASH',
      'PCT',
      'UNDER',
      'UNDERX',
    ]);
  });

  it('offers filter options that narrow with the other filters, keep their own alternatives and respect grants', async () => {
    const all = (await post('/api/module/filters', 'admin', M01)).json();
    expect(all.brand).toEqual([
      { value: 'AUR', label: 'Aurora Optics' },
      { value: 'VLT', label: 'Velto' },
    ]);
    expect(all.collection.map((o: { value: string }) => o.value)).toEqual(['OPTICAL', 'SUN']);
    expect(all.starsZone).toEqual([
      { value: 'EU', label: 'Europe' },
      { value: 'NA', label: 'North America' },
    ]);
    expect(all.newModule).toEqual([{ value: 'false', label: 'Carry Over' }]);
    // Labels from the reference tables and the stars customers alike (one statement for all keys).
    const customers = (await post('/api/cluster/filters?keys=starsCustomer,brand', 'admin', M01)).json();
    expect(customers.brand.map((o: { label: string }) => o.label)).toEqual(['Aurora Optics', 'Velto']);
    expect(customers.starsCustomer.length).toBeGreaterThan(0);
    for (const o of customers.starsCustomer as { value: string; label: string }[]) expect(o.label).toMatch(/^Customer \d+$/);
    expect(all.monthId.map((o: { value: string }) => o.value)).toEqual(['M01_2027', 'M02_2027']);

    const vlt = (await post('/api/module/filters?keys=brand,collection,starsZone,planningChannel', 'admin', { ...M01, brand: ['VLT'] })).json();
    expect(Object.keys(vlt).sort()).toEqual(['brand', 'collection', 'planningChannel', 'starsZone']);
    expect(vlt.brand.map((o: { value: string }) => o.value)).toEqual(['AUR', 'VLT']); // its own filter is left out
    expect(vlt.collection.map((o: { value: string }) => o.value)).toEqual(['SUN']);
    expect(vlt.starsZone.map((o: { value: string }) => o.value)).toEqual(['EU']);
    expect(vlt.planningChannel).toEqual([]);

    const na = (await post('/api/module/filters?keys=brand,collection', 'na', M01)).json();
    expect(na).toEqual({ brand: [{ value: 'AUR', label: 'Aurora Optics' }], collection: [{ value: 'OPTICAL', label: 'Optical' }, { value: 'SUN', label: 'Sun' }] });

    const clusterOptions = (await post('/api/cluster/filters', 'admin', { ...M01, brand: ['AUR'] })).json();
    expect(clusterOptions.country.map((o: { value: string }) => o.value)).toEqual(['IT', 'US']);
    expect(clusterOptions.clientClassification).toEqual([{ value: 'VIP', label: 'VIP' }]);
    expect(clusterOptions.brand.map((o: { value: string }) => o.value)).toEqual(['AUR', 'VLT']);

    const bad = await post('/api/module/filters?keys=brand,nope', 'admin', M01);
    expect(bad.statusCode).toBe(400);
  });

  it("answers the initial options from the caller's grants", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/cluster/initialFilters', headers: await as('eu') });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.monthId.map((o: { value: string }) => o.value)).toEqual(['M12_2026', 'M01_2027', 'M02_2027', 'M10_2027']);
    expect(body.brand).toEqual([{ value: 'AUR', label: 'Aurora Optics' }]);
    expect(body.starsZone).toEqual([{ value: 'EU', label: 'Europe' }]);
    expect(body.country.map((o: { value: string }) => o.value)).toEqual(['FR', 'IT']);
    expect(body.collection.length).toBe(2);
    const admin = (await app.inject({ method: 'GET', url: '/api/cluster/initialFilters', headers: await as('admin') })).json();
    expect(admin.brand.map((o: { value: string }) => o.value)).toEqual(['AUR', 'VLT']);
  });

  it('refuses malformed bodies and needs a session', async () => {
    expect((await post('/api/module/filtered', 'admin', { monthId: ['2027-01'] })).statusCode).toBe(400);
    expect((await post('/api/module/filtered', 'admin', { brand: 'AUR' })).statusCode).toBe(400);
    expect((await post('/api/module/filtered', 'admin', { moduleLabel: ['x'.repeat(51)] })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/module/filtered', payload: {} })).statusCode).toBe(401);
  });
});

describe('too many results', () => {
  beforeEach(async () => {
    await buildWorld({ MAX_SEARCH_RESULTS: 3 });
  });

  it('answers 413 past MAX_SEARCH_RESULTS, while the dry run still counts', async () => {
    for (const url of ['/api/module/filtered', '/api/module/macroFamily', '/api/cluster/filtered']) {
      const res = await post(url, 'admin', url.includes('cluster') ? { clusterLabel: ['cl'] } : M01);
      if (url.includes('cluster')) {
        expect(res.statusCode).toBe(200); // exactly 3 clusters: at the limit, not past it
        continue;
      }
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'tooManyResults', message: 'The search returned too many elements' });
    }
    expect((await post('/api/module/filteredDry', 'admin', M01)).json()).toEqual({ count: 11 });
    await buildCluster(db(), { clusterId: 'CL_MORE' });
    expect((await post('/api/cluster/filtered', 'admin', M01)).statusCode).toBe(413);
    expect((await post('/api/module/filtered', 'admin', { ...M01, brand: ['VLT'] })).statusCode).toBe(200);
  });
});
