import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { refreshIsRed } from '@bo/shared/module-info';
import { PENDING_SUBMIT_STUCK_MINUTES } from '@bo/shared/pending-area';
import { AUR_EU, buildCluster, buildModule, buildSku, buildSkuStats, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { clusters, modules, months, planningChannels, releases, skuPerformance } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  /** Views AUR and VLT, edits AUR only. */
  reader: { grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] }, edit: AUR_EU } },
  vlt: { grants: { view: { brands: ['VLT'], zones: ['EU'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
const db = () => app.database.db;
const M = 'M01_2027';
const post = async (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: await as(user), payload: payload as object });
const ok = async (url: string, user: User, payload: unknown) => {
  const res = await post(url, user, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
});
afterEach(async () => {
  await app.close();
});

async function skusOf(n: number, over: (i: number) => Parameters<typeof buildSku>[1] = () => ({})) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await buildSku(db(), { model: `AU20${i}`, ...over(i) })).upc);
  return out;
}

describe('POST /api/module/percentage', () => {
  it('is the cluster refresh definition applied to one module: share of active SKUs the previous version did not carry', async () => {
    const [u0, u1, u2, u3] = await skusOf(4);
    await buildModule(db(), { moduleName: 'MOD_A', monthId: 'M12_2026', skus: [{ upc: u0! }, { upc: u1! }] });
    // M01_2027 has no MOD_A: the previous version of M02 is the latest earlier month holding it.
    await buildModule(db(), { moduleName: 'MOD_A', monthId: 'M02_2027', skus: [{ upc: u0! }, { upc: u2!, mustHave: false }, { upc: u3! }, { upc: u1!, status: 'REMOVED' }] });
    await buildModule(db(), { moduleName: 'MOD_NEW', monthId: 'M02_2027', skus: [{ upc: u0! }] });
    await buildCluster(db(), { clusterId: 'CL1', monthId: 'M12_2026', modules: [{ moduleName: 'MOD_A' }] });
    await buildCluster(db(), { clusterId: 'CL1', monthId: 'M02_2027', modules: [{ moduleName: 'MOD_A' }] });

    const answer = await ok('/api/module/percentage', 'editor', [
      { moduleName: 'MOD_A', monthId: 'M02_2027' },
      { moduleName: 'MOD_NEW', monthId: 'M02_2027' },
      { moduleName: 'NOPE', monthId: 'M02_2027' },
    ]);
    expect(answer.moduleDtoList).toEqual([
      { moduleName: 'MOD_A', monthId: 'M02_2027', percentageRefresh: 67, previousMonthId: 'M12_2026', totalSku: 3, totalMh: 2 },
      { moduleName: 'MOD_NEW', monthId: 'M02_2027', percentageRefresh: null, previousMonthId: null, totalSku: 1, totalMh: 1 },
    ]);
    expect(refreshIsRed(answer.moduleDtoList[0].percentageRefresh)).toBe(true);
    expect(refreshIsRed(30)).toBe(false);

    // The same data through the cluster call: a cluster of this one module has the same refresh.
    const cluster = await ok('/api/cluster/clusterPercentage', 'editor', [
      { clusterId: 'CL1', monthId: 'M02_2027', modules: [{ moduleName: 'MOD_A', clusterCompositionStatus: 'ADDED' }] },
    ]);
    const [c] = cluster.clusterDtoList;
    expect({ percentageRefresh: c.percentageRefresh, previousMonthId: c.previousMonthId, totalSku: c.totalSku, totalMh: c.totalMh }).toEqual({
      percentageRefresh: answer.moduleDtoList[0].percentageRefresh,
      previousMonthId: 'M12_2026',
      totalSku: 3,
      totalMh: 2,
    });
  });

  it('counts the page composition when sent (removed lines left out), and shows nothing of modules the caller may not view', async () => {
    const [u0, u1, u2] = await skusOf(3);
    await buildModule(db(), { moduleName: 'MOD_A', monthId: 'M12_2026', skus: [{ upc: u0! }, { upc: u1! }] });
    await buildModule(db(), { moduleName: 'MOD_A', monthId: M, skus: [{ upc: u2! }] });
    const page = await ok('/api/module/percentage', 'editor', [
      {
        moduleName: 'MOD_A',
        monthId: M,
        productDtoList: [
          { upc: u0, mustHave: true, moduleCompositionStatus: 'ADDED' },
          { upc: u1, mustHave: false, moduleCompositionStatus: 'ADDED' },
          { upc: u2, mustHave: true, moduleCompositionStatus: 'REMOVED' },
        ],
      },
    ]);
    expect(page.moduleDtoList[0]).toMatchObject({ percentageRefresh: 0, totalSku: 2, totalMh: 1 });
    expect((await ok('/api/module/percentage', 'editor', [{ moduleName: 'MOD_A', monthId: M }])).moduleDtoList[0]).toMatchObject({ percentageRefresh: 100 });
    expect((await ok('/api/module/percentage', 'vlt', [{ moduleName: 'MOD_A', monthId: M }])).moduleDtoList).toEqual([]);
  });

  it('refuses bad bodies', async () => {
    expect((await post('/api/module/percentage', 'editor', [])).statusCode).toBe(400);
    expect((await post('/api/module/percentage', 'editor', [{ moduleName: 'MOD_A', monthId: '2027-01' }])).statusCode).toBe(400);
    expect((await post('/api/module/percentage', 'editor', [{ moduleName: 'MOD_A', monthId: M, productDtoList: [{ upc: 'x', mustHave: true, moduleCompositionStatus: 'GONE' }] }])).statusCode).toBe(400);
  });
});

describe('POST /api/module/pendingModuleInfo', () => {
  const ERR = 'Price missing; Door count below minimum';
  async function setModule(id: number, set: Partial<typeof modules.$inferInsert>) {
    await db().update(modules).set(set).where(eq(modules.id, id));
  }

  it('agrees with the Pending Area of the same caller, and gives the reason and the warnings', async () => {
    await setModule((await buildModule(db(), { moduleName: 'WIP_ERR' })).id, { rpasErrors: ERR });
    await buildModule(db(), { moduleName: 'WIP_PLAIN' });
    await setModule((await buildModule(db(), { moduleName: 'SUB_ERR', status: 'SUBMITTED' })).id, { rpasErrors: ERR });
    await setModule((await buildModule(db(), { moduleName: 'STUCK', status: 'SUBMIT_IN_PROGRESS' })).id, {
      updatedAt: new Date(Date.now() - (PENDING_SUBMIT_STUCK_MINUTES + 1) * 60_000),
    });
    await setModule((await buildModule(db(), { moduleName: 'SENDING', status: 'SUBMIT_IN_PROGRESS' })).id, { updatedAt: new Date() });
    await setModule((await buildModule(db(), { moduleName: 'VLT_ERR', brandCode: 'VLT' })).id, { rpasErrors: ERR });
    await setModule((await buildModule(db(), { moduleName: 'CLOSED', monthId: 'M12_2026' })).id, { rpasErrors: ERR });
    const keys = ['WIP_ERR', 'WIP_PLAIN', 'SUB_ERR', 'STUCK', 'SENDING', 'VLT_ERR'].map((moduleName) => ({ moduleName, monthId: M })).concat({ moduleName: 'CLOSED', monthId: 'M12_2026' });

    for (const user of ['admin', 'editor', 'reader'] as const) {
      const info: { moduleName: string; pending: boolean }[] = await ok('/api/module/pendingModuleInfo', user, { moduleDtoList: keys });
      const area = await ok('/api/module/pendingArea', user, { status: ['WIP', 'SUBMIT_IN_PROGRESS'] });
      const listed = area.modulePendingAreaDtoList.map((r: { moduleName: string }) => r.moduleName).sort();
      expect(info.filter((i) => i.pending).map((i) => i.moduleName).sort(), user).toEqual(listed);
    }
    const info = await ok('/api/module/pendingModuleInfo', 'reader', { moduleDtoList: keys });
    const byName = Object.fromEntries(info.map((i: { moduleName: string }) => [i.moduleName, i]));
    expect(byName.WIP_ERR).toEqual({ moduleName: 'WIP_ERR', monthId: M, status: 'WIP', pending: true, reason: 'PLANNING_SYSTEM_WARNINGS', rpasErrors: ['Price missing', 'Door count below minimum'] });
    expect(byName.STUCK).toMatchObject({ pending: true, reason: 'SUBMIT_STUCK', rpasErrors: [] });
    expect(byName.WIP_PLAIN).toMatchObject({ pending: true, reason: 'WIP', rpasErrors: [] });
    expect(byName.SENDING).toMatchObject({ pending: false, reason: null });
    expect(byName.SUB_ERR).toMatchObject({ pending: false, reason: null, rpasErrors: ['Price missing', 'Door count below minimum'] });
    // Viewed but not editable: not in this caller's Pending Area, the warnings still shown.
    expect(byName.VLT_ERR).toMatchObject({ pending: false, rpasErrors: ['Price missing', 'Door count below minimum'] });
    expect(byName.CLOSED).toMatchObject({ pending: false });
    expect((await ok('/api/module/pendingModuleInfo', 'admin', { moduleDtoList: keys })).find((i: { moduleName: string }) => i.moduleName === 'VLT_ERR').pending).toBe(true);
    // Not viewable: left out.
    expect((await ok('/api/module/pendingModuleInfo', 'editor', { moduleDtoList: keys })).map((i: { moduleName: string }) => i.moduleName)).not.toContain('VLT_ERR');
    expect((await post('/api/module/pendingModuleInfo', 'editor', { moduleDtoList: [] })).statusCode).toBe(400);
  });
});

describe('performance filters (ibicFilters) on the module page', () => {
  let u: string[];
  beforeEach(async () => {
    u = await skusOf(3, (i) => ({ legoClass: i === 1 ? 'L1' : 'L2' }));
    await buildModule(db(), { moduleName: 'MOD_A', skus: [{ upc: u[0]! }, { upc: u[1]!, mustHave: false }, { upc: u[2]!, status: 'REMOVED' }] });
    await buildSkuStats(db(), u[0]!, M, { sellIn: 11, sellOut: 8, pty: 30 });
    await buildSkuStats(db(), u[1]!, M, { sellIn: 12, sellOut: 9, pty: 50 });
    await buildSkuStats(db(), u[2]!, M, { pty: 99 });
    const fact = { customerSegmentation: 'GOLD', numDoor: 1 };
    await db()
      .insert(skuPerformance)
      .values([
        { ...fact, upc: u[0]!, monthId: M, starsZone: 'EU', sellIn: 5, sellOut: 40 },
        { ...fact, upc: u[0]!, monthId: 'M12_2026', starsZone: 'EU', sellIn: 2, sellOut: 20 },
        { ...fact, upc: u[0]!, monthId: M, starsZone: 'NA', sellIn: 1, sellOut: 7 },
        { ...fact, upc: u[1]!, monthId: M, starsZone: 'NA', sellIn: 3, sellOut: 9 },
        { ...fact, upc: u[2]!, monthId: M, starsZone: 'EU', sellIn: 3, sellOut: 50 },
      ]);
  });
  const modulesCall = async (ibicFilters?: object) => {
    const [m] = await ok('/api/module/modules', 'editor', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }], ...(ibicFilters ? { ibicFilters } : {}) });
    return Object.fromEntries(m.productDtoList.map((p: { upc: string; sellIn: number | null; sellOut: number | null }) => [p.upc, [p.sellIn, p.sellOut]]));
  };
  const details = async (ibicFilters?: object) =>
    (await ok('/api/module/filteredDetails', 'editor', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }], ...(ibicFilters ? { ibicFilters } : {}) }))[0].upcList;

  it('/api/module/modules: the SKU figures become those of the chosen places and window; the composition is never narrowed', async () => {
    expect(await modulesCall()).toEqual({ [u[0]!]: [11, 8], [u[1]!]: [12, 9], [u[2]!]: [10, 8] });
    expect(await modulesCall({})).toEqual({ [u[0]!]: [11, 8], [u[1]!]: [12, 9], [u[2]!]: [10, 8] });
    expect(await modulesCall({ zonaPerMysa: ['EU'] })).toEqual({ [u[0]!]: [7, 60], [u[1]!]: [0, 0], [u[2]!]: [3, 50] });
    expect(await modulesCall({ zonaPerMysa: ['EU'], monthsRolling: [1] })).toEqual({ [u[0]!]: [5, 40], [u[1]!]: [0, 0], [u[2]!]: [3, 50] });
    expect(await modulesCall({ countryName: ['United States'] })).toEqual({ [u[0]!]: [1, 7], [u[1]!]: [3, 9], [u[2]!]: [0, 0] });
    expect(await modulesCall({ legoClassDes: ['L1'] })).toEqual({ [u[0]!]: [null, null], [u[1]!]: [3, 9], [u[2]!]: [null, null] });
  });

  it('/api/module/modulePerformances: the filters narrow the SKUs listed', async () => {
    const perf = async (ibicFilters: object) =>
      (await ok('/api/module/modulePerformances', 'editor', { moduleDto: { moduleName: 'MOD_A', monthId: M }, ibicFilters })).upcList.map((x: { upc: string }) => x.upc);
    expect(await perf({})).toEqual([u[0], u[1]]);
    expect(await perf({ zonaPerMysa: ['EU'] })).toEqual([u[0]]);
    expect(await perf({ legoClassDes: ['L1'] })).toEqual([u[1]]);
  });

  it('/api/module/filteredDetails: the active SKUs that sold in the chosen places and window', async () => {
    expect(await details()).toEqual([u[0], u[1]]);
    expect(await details({ zonaPerMysa: ['EU'] })).toEqual([u[0]]);
    expect(await details({ zonaPerMysa: ['NA'] })).toEqual([u[0], u[1]]);
    expect(await details({ countryName: ['Italy'], legoClassDes: ['L1'] })).toEqual([]);
    expect(await details({ legoClassDes: ['L1'] })).toEqual([u[1]]);
    const store = await buildStore(db(), 'US');
    expect(await details({ customerCode: [store.starsCustomer] })).toEqual([u[0], u[1]]);
    expect(await details({ customerCode: ['NOBODY'] })).toEqual([]);
    expect((await ok('/api/module/filteredDetails', 'vlt', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }] }))).toEqual([]);
    expect((await post('/api/module/filteredDetails', 'editor', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }], ibicFilters: { monthsRolling: [99] } })).statusCode).toBe(400);
  });

  it('/api/module/filteredDetailsPty: active SKUs with a pty in the module month, largest first', async () => {
    const [u3] = await skusOf(1);
    await buildModule(db(), { moduleName: 'MOD_B', skus: [{ upc: u3! }] });
    const answer = await ok('/api/module/filteredDetailsPty', 'editor', {
      moduleDtoList: [
        { moduleName: 'MOD_B', monthId: M },
        { moduleName: 'MOD_A', monthId: M },
      ],
    });
    expect(answer).toEqual([
      { moduleName: 'MOD_B', monthId: M, pty: 0, upcList: [], skuList: [] },
      { moduleName: 'MOD_A', monthId: M, pty: 80, upcList: [u[1], u[0]], skuList: [{ upc: u[1], pty: 50 }, { upc: u[0], pty: 30 }] },
    ]);
    expect(await ok('/api/module/filteredDetailsPty', 'vlt', { moduleDtoList: [{ moduleName: 'MOD_A', monthId: M }] })).toEqual([]);
    expect((await post('/api/module/filteredDetailsPty', 'editor', {})).statusCode).toBe(400);
  });
});

describe('POST /api/product/filters', () => {
  it('answers the registry options of the granted brands and the performance filter options of the granted zones', async () => {
    await db().insert(planningChannels).values({ planningChannelId: 'WHOLE', label: 'Wholesale' });
    await buildSku(db(), { planningChannelId: 'RETAIL', legoClass: 'L1' });
    await buildSku(db(), { collection: 'OPTICAL', deleted: true, legoClass: 'LX', planningChannelId: 'WHOLE' });
    await buildSku(db(), { brandCode: 'VLT', collection: 'OPTICAL', legoClass: 'L9', planningChannelId: 'WHOLE' });
    const it = await buildStore(db(), 'IT');
    const us = await buildStore(db(), 'US');

    const editor = await ok('/api/product/filters', 'editor', {});
    expect(editor.anagraFilters).toEqual({
      brand: [{ value: 'AUR', label: 'Aurora Optics' }],
      collection: [{ value: 'SUN', label: 'Sun' }],
      planningChannel: [{ value: 'RETAIL', label: 'Retail' }],
    });
    expect(editor.ibicFilters).toMatchObject({
      monthsRolling: [1, 3, 6, 9, 12],
      zonaPerMysa: [{ value: 'EU', label: 'Europe' }],
      countryName: [
        { value: 'France', label: 'France' },
        { value: 'Italy', label: 'Italy' },
      ],
      customerCode: [{ value: it.starsCustomer, label: `${it.starsCustomer} - Customer ${it.starsCustomer.replace('CUSTIT', '')}` }],
      distrChannelActual: [{ value: 'OPTICIAN', label: 'OPTICIAN' }],
      legoClassDes: [{ value: 'L1', label: 'L1' }],
    });
    expect(JSON.stringify(editor)).not.toContain(us.starsCustomer);

    const admin = await ok('/api/product/filters', 'admin', {});
    expect(admin.anagraFilters.brand.map((o: { value: string }) => o.value)).toEqual(['AUR', 'VLT']);
    expect(admin.anagraFilters.collection.map((o: { value: string }) => o.value)).toEqual(['OPTICAL', 'SUN']);
    expect(admin.ibicFilters.customerCode.map((o: { value: string }) => o.value).sort()).toEqual([it.starsCustomer, us.starsCustomer].sort());
    const vlt = await ok('/api/product/filters', 'admin', { brand: ['VLT'] });
    expect(vlt.anagraFilters.collection).toEqual([{ value: 'OPTICAL', label: 'Optical' }]);
    expect(vlt.ibicFilters.legoClassDes).toEqual([{ value: 'L9', label: 'L9' }]);
    // A brand the caller does not hold narrows to nothing.
    expect((await ok('/api/product/filters', 'editor', { brand: ['VLT'] })).anagraFilters.collection).toEqual([]);
    expect((await post('/api/product/filters', 'editor', { brand: 'AUR' })).statusCode).toBe(400);
  });
});

describe('POST /api/cluster/brand and /api/cluster/planningChannel', () => {
  it('offer the brands and channels of the live items of the release months the caller may view', async () => {
    await db().insert(planningChannels).values({ planningChannelId: 'WHOLE', label: 'Wholesale' });
    await db().insert(releases).values({ releaseId: 'R2028' });
    await db().insert(months).values({ monthId: 'M03_2028', year: 2028, month: 3, releaseId: 'R2028' });
    await db().insert(releases).values({ releaseId: 'R2029' });
    const aur = await buildModule(db(), { moduleName: 'AUR_MOD' });
    await db().update(modules).set({ planningChannelId: 'RETAIL' }).where(eq(modules.id, aur.id));
    const vltCluster = await buildCluster(db(), { clusterId: 'VLT_CL', brandCode: 'VLT', monthId: 'M02_2027' });
    await db().update(clusters).set({ planningChannelId: 'WHOLE' }).where(eq(clusters.id, vltCluster.id));
    const gone = await buildModule(db(), { moduleName: 'GONE', brandCode: 'VLT', monthId: 'M03_2028' });
    await db().update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.id, gone.id));
    await buildModule(db(), { moduleName: 'LATER', monthId: 'M03_2028', collection: 'OPTICAL' });

    const R = { releaseId: 'R2027' };
    expect(await ok('/api/cluster/brand', 'admin', R)).toEqual([
      { value: 'AUR', label: 'Aurora Optics' },
      { value: 'VLT', label: 'Velto' },
    ]);
    expect(await ok('/api/cluster/planningChannel', 'admin', R)).toEqual([
      { value: 'RETAIL', label: 'Retail' },
      { value: 'WHOLE', label: 'Wholesale' },
    ]);
    expect(await ok('/api/cluster/planningChannel', 'admin', { ...R, brand: ['VLT'] })).toEqual([{ value: 'WHOLE', label: 'Wholesale' }]);
    expect(await ok('/api/cluster/brand', 'editor', R)).toEqual([{ value: 'AUR', label: 'Aurora Optics' }]);
    expect(await ok('/api/cluster/planningChannel', 'editor', R)).toEqual([{ value: 'RETAIL', label: 'Retail' }]);
    expect(await ok('/api/cluster/brand', 'admin', { releaseId: 'R2028' })).toEqual([{ value: 'AUR', label: 'Aurora Optics' }]);
    expect(await ok('/api/cluster/brand', 'admin', { releaseId: 'R2029' })).toEqual([]);

    const unknown = await post('/api/cluster/brand', 'admin', { releaseId: 'R9999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('releaseNotFound');
    expect((await post('/api/cluster/planningChannel', 'admin', { releaseId: 'R 1' })).statusCode).toBe(400);
    expect((await post('/api/cluster/brand', 'admin', {})).statusCode).toBe(400);
  });
});
