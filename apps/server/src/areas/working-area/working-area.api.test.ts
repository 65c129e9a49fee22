import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { AUR_EU, buildCluster, buildModule, buildSku, buildSkuStats, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { locks, macroFamilies, moduleStarsZones, modules, skuPerformance, skus } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  vlt: { grants: { view: { brands: ['VLT'], zones: ['EU'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
let upcs: string[];

const M = 'M01_2027';
const post = async (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: await as(user), payload: payload as object });

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ config: { MAX_SEARCH_RESULTS: 5 }, reference: true, users: USERS }));
  const db = app.database.db;
  upcs = [];
  for (let i = 0; i < 4; i++) upcs.push((await buildSku(db, { model: `AU10${i}`, srp: 100 + i * 10, whsprice: 50 + i * 10, flagN: i === 3, legoClass: i % 2 ? 'L1' : 'L2' })).upc);
  await db.insert(macroFamilies).values({ macroFamily: 'BEST SELLERS', specialKind: 'BEST_SELLER' });
  await buildModule(db, { moduleName: 'MOD_A', skus: [{ upc: upcs[0]!, mustHave: true }, { upc: upcs[1]!, mustHave: false }, { upc: upcs[2]!, status: 'REMOVED' }] });
  await buildModule(db, { moduleName: 'MOD_B', macroFamily: 'BEST SELLERS', skus: [{ upc: upcs[2]!, mustHave: true }] });
  await buildModule(db, { moduleName: 'MOD_A', monthId: 'M12_2026', skus: [{ upc: upcs[0]!, mustHave: true }] });
});
afterEach(async () => {
  await app.close();
});

describe('POST /api/module/modules', () => {
  it('answers the modules in the order asked, with their SKUs and whether their family is special', async () => {
    const res = await post('/api/module/modules', 'editor', { moduleDtoList: [{ moduleName: 'MOD_B', monthId: M }, { moduleName: 'MOD_A', monthId: M }], ibicFilters: { monthsRolling: [6] } });
    expect(res.statusCode).toBe(200);
    const [b, a] = res.json();
    expect([b.moduleName, a.moduleName]).toEqual(['MOD_B', 'MOD_A']);
    expect(b.specialKind).toBe('BEST_SELLER');
    expect(a.specialKind).toBeNull();
    expect(a.productDtoList).toHaveLength(3);
    expect(a).toMatchObject({ length: 1, elLength: 1, previousMustHave: 1, previousEligible: 0 });
  });

  it('answers a module as its save and details do: one shape (items/module/module.presenter.ts)', async () => {
    const key = { moduleName: 'MOD_B', monthId: M };
    expect((await post('/api/module/lock', 'editor', [key])).statusCode).toBe(200);
    const save = await post('/api/module/save', 'editor', { ...key, productDtoList: [{ upc: upcs[2]!, mustHave: true, moduleCompositionStatus: 'ADDED' }] });
    expect(save.statusCode).toBe(200);
    const [page] = (await post('/api/module/modules', 'editor', { moduleDtoList: [key] })).json();
    const [details] = (await post('/api/module/details', 'editor', [key])).json();
    expect(save.json()).toMatchObject({ specialKind: 'BEST_SELLER' });
    expect(save.json()).toEqual(page);
    expect(details).toEqual(page);
  });

  it("answers each module's facts: zones, lock, lego month, open months, the month before, its clusters", async () => {
    const db = app.database.db;
    const modAId = (await db.select().from(modules).where(eq(modules.moduleName, 'MOD_A'))).find((r) => r.monthId === M)!.id;
    await db.insert(moduleStarsZones).values({ moduleId: modAId, starsZone: 'NA' });
    await db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_A', monthId: M, owner: 'editor' });
    await buildModule(db, { moduleName: 'MOD_A', monthId: 'M10_2027' });
    const gone = await buildModule(db, { moduleName: 'MOD_A', monthId: 'M02_2027' });
    await db.update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.id, gone.id));
    await buildSkuStats(db, upcs[0]!, M, { pty: 3 });
    await buildSkuStats(db, upcs[1]!, M, { pty: 4 });
    const [s1, s2, s3] = [await buildStore(db), await buildStore(db), await buildStore(db)];
    await buildCluster(db, { clusterId: 'CL_B', storeJdas: [s2!.storeJda, s1!.storeJda], modules: [{ moduleName: 'MOD_A' }] });
    await buildCluster(db, { clusterId: 'CL_A', modules: [{ moduleName: 'MOD_A' }, { moduleName: 'MOD_B' }] });
    await buildCluster(db, { clusterId: 'CL_REMOVED', storeJdas: [s3!.storeJda], modules: [{ moduleName: 'MOD_A', status: 'REMOVED' }] });
    await buildCluster(db, { clusterId: 'CL_OTHER_MONTH', monthId: 'M10_2027', modules: [{ moduleName: 'MOD_A' }] });
    const deleted = await buildCluster(db, { clusterId: 'CL_DELETED', modules: [{ moduleName: 'MOD_A' }] });
    await db.execute(sql`UPDATE clusters SET deletion_status = 'DELETED' WHERE id = ${deleted.id}`);

    const [modA, modB, modA10] = (
      await post('/api/module/modules', 'editor', {
        moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }, { moduleName: 'MOD_B', monthId: M }, { moduleName: 'MOD_A', monthId: 'M10_2027' }],
      })
    ).json();
    expect(modA).toMatchObject({
      starZones: ['EU', 'NA'],
      locked: true,
      userLock: 'editor',
      legoMonth: true,
      inOpenMonth: true,
      releaseClosed: false,
      openMonthIdList: ['M01_2027', 'M10_2027'],
      pty: 7,
      // upcs[0] (MH) was in the module the month before, upcs[1] (EL) was not.
      refreshIndex: 50,
      refreshIndexMH: 0,
      refreshIndexEL: 100,
      previousMustHave: 1,
      previousEligible: 0,
      length: 1,
      elLength: 1,
      clusters: [
        { clusterLabel: 'CL_A label', starsCustomer: [] },
        { clusterLabel: 'CL_B label', starsCustomer: [s1!.starsCustomer, s2!.starsCustomer].sort() },
      ],
    });
    expect(modB).toMatchObject({
      starZones: ['EU'],
      locked: false,
      userLock: null,
      openMonthIdList: ['M01_2027'],
      refreshIndex: 0,
      previousMustHave: 0,
      previousEligible: 0,
      clusters: [{ clusterLabel: 'CL_A label', starsCustomer: [] }],
    });
    // The month before is that of each row: MOD_A has no row in M09_2027 (M12_2026's lines are MOD_A M01_2027's).
    expect(modA10).toMatchObject({ monthId: 'M10_2027', previousMustHave: 0, previousEligible: 0, clusters: [{ clusterLabel: 'CL_OTHER_MONTH label', starsCustomer: [] }] });
  });

  it('leaves out modules the caller may not view, and refuses bad keys', async () => {
    expect((await post('/api/module/modules', 'vlt', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }] })).json()).toEqual([]);
    expect((await post('/api/module/modules', 'editor', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: '2027-01' }] })).statusCode).toBe(400);
  });
});

describe('POST /api/module/importModules', () => {
  it('adds modules by key and whole macro families, and names what it did not find', async () => {
    const res = await post('/api/module/importModules', 'editor', [
      { moduleName: 'MOD_A', monthId: M },
      { moduleName: 'NOPE', monthId: M },
      { macroFamily: 'BEST SELLERS', monthId: M, brand: 'AUR' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().moduleDtoList.map((m: { moduleName: string }) => m.moduleName)).toEqual(['MOD_A', 'MOD_B']);
    expect(res.json().notFound).toEqual(['NOPE (M01_2027)']);
  });

  it('needs a module name or a family', async () => {
    expect((await post('/api/module/importModules', 'editor', [{ monthId: M }])).statusCode).toBe(400);
  });
});

describe('POST /api/module/modulePerformances', () => {
  beforeEach(async () => {
    const db = app.database.db;
    const rows = [
      { upc: upcs[0]!, monthId: M, starsZone: 'EU', customerSegmentation: 'GOLD', numDoor: 10, sellIn: 5, sellOut: 40 },
      { upc: upcs[0]!, monthId: 'M12_2026', starsZone: 'EU', customerSegmentation: 'GOLD', numDoor: 12, sellIn: 5, sellOut: 20 },
      { upc: upcs[0]!, monthId: M, starsZone: 'NA', customerSegmentation: 'GOLD', numDoor: 3, sellIn: 1, sellOut: 7 },
      { upc: upcs[1]!, monthId: M, starsZone: 'EU', customerSegmentation: 'GOLD', numDoor: 4, sellIn: 1, sellOut: 9 },
    ];
    await db.insert(skuPerformance).values(rows);
  });

  it('sums sell-out over the rolling months per zone and segmentation, best SKU first', async () => {
    const res = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.months).toHaveLength(6);
    expect(body.months.at(-1)).toBe(M);
    expect(body.upcList.map((u: { upc: string }) => u.upc)).toEqual([upcs[0], upcs[1]]);
    expect(body.upcList[0]).toMatchObject({
      sellOut: 67,
      numDoor: 15,
      starZoneList: [
        { starZone: 'EU', numDoor: 12, segmentationList: [{ segmentation: 'GOLD', numDoor: 12, sellOut: 60 }] },
        { starZone: 'NA', numDoor: 3, segmentationList: [{ segmentation: 'GOLD', numDoor: 3, sellOut: 7 }] },
      ],
    });
    expect(body.upcList[0].monthly.slice(-2)).toEqual([{ monthId: 'M12_2026', sellOut: 20 }, { monthId: M, sellOut: 47 }]);
  });

  it('applies zone, country, months rolling and lego class filters, and takes the page composition', async () => {
    const one = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M }, ibicFilters: { monthsRolling: [1], zonaPerMysa: ['EU'] } });
    expect(one.json().upcList[0]).toMatchObject({ upc: upcs[0], sellOut: 40 });
    const us = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M }, ibicFilters: { countryName: ['United States'] } });
    expect(us.json().upcList.map((u: { upc: string }) => u.upc)).toEqual([upcs[0]]);
    const lego = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M }, ibicFilters: { legoClassDes: ['L1'] } });
    expect(lego.json().upcList.map((u: { upc: string }) => u.upc)).toEqual([upcs[1]]);
    const page = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M, productDtoList: [{ upc: upcs[1] }] } });
    expect(page.json().upcList.map((u: { upc: string }) => u.upc)).toEqual([upcs[1]]);
  });

  it('narrows to the cells of the chosen customers, and says so when none matches', async () => {
    const store = await buildStore(app.database.db, 'IT');
    const ok = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M }, ibicFilters: { customerCode: [store.starsCustomer] } });
    expect(ok.json().upcList[0].starZoneList.map((z: { starZone: string }) => z.starZone)).toEqual(['EU']);
    const none = await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M }, ibicFilters: { customerCode: ['NOBODY'] } });
    expect(none.json()).toMatchObject({ upcList: [], status: 'No store matches the chosen customers or distribution channels' });
  });

  it('answers 404 for an unknown module and 403 for a module the caller may not view', async () => {
    expect((await post('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'NOPE', monthId: M } })).statusCode).toBe(404);
    expect((await post('/api/module/modulePerformances', 'vlt', { moduleDto: { moduleName: 'MOD_A', monthId: M } })).statusCode).toBe(403);
  });
});

describe('POST /api/product/filtered (Active SKUs)', () => {
  it('needs a planning channel, or a brand and a collection', async () => {
    const res = await post('/api/product/filtered', 'editor', { brand: ['AUR'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toBe('body.planningChannel');
  });

  it('searches by text (case-insensitive, special characters literal), price and modules, with the month figures', async () => {
    await buildSkuStats(app.database.db, upcs[1]!, M, { sellOut: 77 });
    const res = await post('/api/product/filtered', 'editor', { brand: ['AUR'], collection: ['SUN'], model: 'au10', priceMin: 105, priceMax: 125, monthId: M });
    expect(res.statusCode).toBe(200);
    const list = res.json().productDtoList;
    expect(list.map((p: { upc: string }) => p.upc)).toEqual([upcs[1], upcs[2]]);
    expect(list[0]).toMatchObject({ sellOut: 77, brand: 'AUR', collection: 'SUN', moduleCompositionStatus: 'ADDED' });
    expect((await post('/api/product/filtered', 'editor', { brand: ['AUR'], collection: ['SUN'], model: '%' })).json().productDtoList).toEqual([]);
    const inModule = await post('/api/product/filtered', 'editor', { brand: ['AUR'], collection: ['SUN'], moduleList: ['MOD_A'], monthId: M });
    expect(inModule.json().productDtoList.map((p: { upc: string }) => p.upc).sort()).toEqual([upcs[0], upcs[1]].sort());
  });

  it('keeps the SKUs that sold in the places of the performance filters, over the rolling window', async () => {
    await app.database.db.insert(skuPerformance).values([
      { upc: upcs[0]!, monthId: M, starsZone: 'EU', customerSegmentation: 'GOLD', numDoor: 10, sellIn: 5, sellOut: 40 },
      { upc: upcs[1]!, monthId: 'M12_2026', starsZone: 'NA', customerSegmentation: 'GOLD', numDoor: 3, sellIn: 1, sellOut: 7 },
      { upc: upcs[2]!, monthId: M, starsZone: 'EU', customerSegmentation: 'GOLD', numDoor: 2, sellIn: 1, sellOut: 0 },
    ]);
    const search = async (filters: Record<string, unknown>) =>
      (await post('/api/product/filtered', 'editor', { brand: ['AUR'], collection: ['SUN'], monthId: M, ...filters })).json().productDtoList.map((p: { upc: string }) => p.upc);
    expect(await search({ zonaPerMysa: ['EU'] })).toEqual([upcs[0]]);
    expect(await search({ zonaPerMysa: ['NA'], monthsRolling: [1] })).toEqual([]);
    expect(await search({ zonaPerMysa: ['NA'], monthsRolling: [2] })).toEqual([upcs[1]]);
    expect(await search({ countryName: ['United States'] })).toEqual([upcs[1]]);
    expect(await search({ zonaPerMysa: ['EU'], countryName: ['United States'] })).toEqual([]);
    const store = await buildStore(app.database.db, 'IT');
    expect(await search({ customerCode: [store.starsCustomer] })).toEqual([upcs[0]]);
    expect(await search({ customerCode: ['NOBODY'] })).toEqual([]);
    // The window only: no narrowing by place, every SKU.
    expect(await search({ monthsRolling: [1] })).toHaveLength(4);
  });

  it('answers 413 past MAX_SEARCH_RESULTS and refuses long texts', async () => {
    for (let i = 0; i < 3; i++) await buildSku(app.database.db);
    expect((await post('/api/product/filtered', 'editor', { brand: ['AUR'], collection: ['SUN'] })).statusCode).toBe(413);
    expect((await post('/api/product/filtered', 'editor', { brand: ['AUR'], collection: ['SUN'], model: 'x'.repeat(11) })).statusCode).toBe(400);
  });
});

describe('POST /api/module/clusterAnalysis', () => {
  beforeEach(async () => {
    const db = app.database.db;
    const s1 = await buildStore(db);
    const s2 = await buildStore(db);
    const c = await buildCluster(db, { clusterId: 'CL1', storeJdas: [s1.storeJda, s2.storeJda], modules: [{ moduleName: 'MOD_A' }, { moduleName: 'MOD_B' }] });
    const { clusters } = await import('../../db/schema.js');
    await db.update(clusters).set({ rangeFacing: '2-3' }).where(eq(clusters.id, c.id));
    await buildCluster(db, { clusterId: 'CL1', monthId: 'M12_2026', modules: [{ moduleName: 'MOD_A' }] });
  });

  it('counts the cluster assortment with the page compositions, refresh against last month, and prices', async () => {
    const res = await post('/api/module/clusterAnalysis', 'editor', { modules: [{ moduleName: 'MOD_A', monthId: M }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        clusterId: 'CL1',
        clusterLabel: 'CL1 label',
        monthId: M,
        doors: 2,
        mh: 2,
        el: 1,
        mhandEL: 3,
        minFacing: 2,
        maxFacing: 3,
        refreshMH: 50,
        refreshEL: 100,
        refreshMHandEL: 67,
        avgPrice: 60,
        avgSRPPrice: 110,
        modules: ['MOD_A', 'MOD_B'],
      },
    ]);
    // The same, as the page would have it after moving upcs[1] to MH: unsaved lines count.
    const edited = await post('/api/module/clusterAnalysis', 'editor', {
      modules: [{ moduleName: 'MOD_A', monthId: M, productDtoList: [{ upc: upcs[0], mustHave: true, moduleCompositionStatus: 'ADDED' }, { upc: upcs[1], mustHave: true, moduleCompositionStatus: 'ADDED' }] }],
    });
    expect(edited.json()[0]).toMatchObject({ mh: 3, el: 0 });
  });

  it('shows nothing of modules the caller may not view', async () => {
    expect((await post('/api/module/clusterAnalysis', 'vlt', { modules: [{ moduleName: 'MOD_A', monthId: M }] })).json()).toEqual([]);
  });
});

describe('newness views', () => {
  it('filteredDetailsNotLego: SKUs that entered the module in the given month', async () => {
    const res = await post('/api/module/filteredDetailsNotLego', 'editor', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }], currentMonthId: M });
    expect(res.json()).toEqual([{ moduleName: 'MOD_A', monthId: M, upcList: [upcs[1]] }]);
    const before = await post('/api/module/filteredDetailsNotLego', 'editor', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }], currentMonthId: 'M12_2026' });
    expect(before.json()[0].upcList).toEqual([upcs[0]]);
  });

  it('filteredDetailsLego: SKUs flagged new by the product data', async () => {
    await buildModule(app.database.db, { moduleName: 'MOD_N', skus: [{ upc: upcs[3]! }, { upc: upcs[0]! }] });
    const res = await post('/api/module/filteredDetailsLego', 'editor', { moduleDtoList: [{ moduleName: 'MOD_N', monthId: M }], flagNew: true });
    expect(res.json()).toEqual([{ moduleName: 'MOD_N', monthId: M, upcList: [upcs[3]] }]);
  });
});

describe('SKU info calls', () => {
  it('publishedProductModule lists the SUBMITTED modules of the month that carry the SKU', async () => {
    await app.database.db.update(modules).set({ status: 'SUBMITTED', publicationDate: new Date('2026-12-20T10:00:00Z') }).where(eq(modules.moduleName, 'MOD_A'));
    const [sku] = await app.database.db.select().from(skus).where(eq(skus.upc, upcs[0]!));
    const body = { monthId: M, model: sku!.model, color: sku!.color, size: sku!.size, materialCode: sku!.materialCode, skuCode: sku!.skuCode };
    expect((await post('/api/module/publishedProductModule', 'editor', body)).json()).toEqual([
      { moduleName: 'MOD_A', moduleLabel: 'MOD_A label', monthId: M, mustHave: true, publicationDate: '2026-12-20T10:00:00.000Z' },
    ]);
    expect((await post('/api/module/publishedProductModule', 'vlt', body)).json()).toEqual([]);
  });

  it('extraSellIn answers the number of the month, 0 without figures', async () => {
    const [sku] = await app.database.db.select().from(skus).where(eq(skus.upc, upcs[0]!));
    await buildSkuStats(app.database.db, upcs[0]!, M, { extraSellIn: 12 });
    const body = { moduleName: 'MOD_A', monthId: M, materialCode: sku!.materialCode, skuCode: sku!.skuCode };
    expect((await post('/api/module/extraSellIn', 'editor', body)).json()).toBe(12);
    expect((await post('/api/module/extraSellIn', 'editor', { ...body, skuCode: 'NONE' })).json()).toBe(0);
    expect((await post('/api/module/extraSellIn', 'editor', { ...body, moduleName: 'NOPE' })).statusCode).toBe(404);
  });
});
