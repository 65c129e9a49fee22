import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { StatisticCluster, StatisticFilter } from '@bo/shared/statistics';
import { useAreaApp } from '../../../test/area-test-app.js';
import { AUR_EU, buildCluster, buildModule, buildSku } from '../../../test/builders.js';
import type { TestUsers } from '../../../test/test-app.js';
import { clusters } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  aurViewer: { role: 'VIEWER', grants: { view: AUR_EU } },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  other: { grants: { view: AUR_EU, edit: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

const MONTH = 'M01_2027';

const { start, app, db, as } = useAreaApp(USERS);

const post = async (url: string, user: User, payload: unknown) => app().inject({ method: 'POST', url, headers: await as(user), payload: payload as object });

const filter = (field: StatisticFilter['field'], searchValue: string, minRange: number, maxRange: number): StatisticFilter => ({ field, searchValue, minRange, maxRange });
async function search(user: User, filters: StatisticFilter[], narrow: { brand?: string[]; collection?: string[]; planningChannel?: string[] } = {}) {
  const res = await post('/api/cluster/statistic', user, { monthId: MONTH, brand: [], collection: [], planningChannel: [], ...narrow, filters });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatisticCluster[];
}
const ids = (list: StatisticCluster[]) => list.map((c) => c.clusterId);
async function options(user: User, body: object) {
  const res = await post('/api/cluster/statisticFiltersByBrand', user, { monthId: MONTH, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, { value: string; label: string }[]>;
}
const values = (list: { value: string }[] | undefined) => (list ?? []).map((o) => o.value);

/**
 * C_HALF (AUR/SUN): 4 active SKUs, 2 CORE and 2 SPORT, 2 polar; a line in the bin, a discontinued and a
 *   deleted SKU (all CORE) must not count, or CORE would not be exactly 50 %.
 * C_ALL (AUR/SUN, planning channel RETAIL): 2 CORE SKUs; a REMOVED module of SPORT SKUs must not count.
 * C_EMPTY (AUR/SUN): no module (shares 0).  C_OPT (AUR/OPTICAL): 1 CORE SKU.  C_VLT (VLT/SUN): 1 HERITAGE SKU.
 * Not in scope: a deleted cluster and a cluster of another month, both all CORE.
 */
async function buildWorld() {
  const sku = (over: Parameters<typeof buildSku>[1] = {}) => buildSku(db(), over).then((s) => s.upc);
  const core1 = await sku({ marketingTheme: 'CORE', polar: true, gender: 'MAN', frameMaterial: 'METAL' });
  const core2 = await sku({ marketingTheme: 'CORE', gender: 'WOMAN' });
  const sport1 = await sku({ marketingTheme: 'SPORT', polar: true, gender: 'MAN' });
  const sport2 = await sku({ marketingTheme: 'SPORT', gender: 'UNISEX' });
  const binned = await sku({ marketingTheme: 'LIFESTYLE', prizm: true });
  const disco = await sku({ marketingTheme: 'RETRO', flagDisco: true, prizm: true });
  const deleted = await sku({ marketingTheme: 'RETRO', deleted: true, prizm: true });
  await buildModule(db(), {
    moduleName: 'M_HALF',
    skus: [{ upc: core1 }, { upc: core2 }, { upc: sport1, mustHave: false }, { upc: sport2 }, { upc: binned, status: 'REMOVED' }, { upc: disco }, { upc: deleted }],
  });
  // Same SKU in two modules of one cluster counts once.
  await buildModule(db(), { moduleName: 'M_HALF_DUP', skus: [{ upc: core1 }, { upc: sport1 }] });
  await buildModule(db(), { moduleName: 'M_CORE', skus: [{ upc: core1 }, { upc: core2 }] });
  await buildModule(db(), { moduleName: 'M_SPORT', skus: [{ upc: sport1 }, { upc: sport2 }] });
  await buildModule(db(), { moduleName: 'M_OPT', collection: 'OPTICAL', skus: [{ upc: await sku({ collection: 'OPTICAL', marketingTheme: 'CORE' }) }] });
  await buildModule(db(), { moduleName: 'M_VLT', brandCode: 'VLT', skus: [{ upc: await sku({ brandCode: 'VLT', marketingTheme: 'HERITAGE' }) }] });
  // The cluster of another month reads its modules in its own month.
  await buildModule(db(), { moduleName: 'M_CORE', monthId: 'M02_2027', skus: [{ upc: core1 }] });

  await buildCluster(db(), { clusterId: 'C_HALF', modules: [{ moduleName: 'M_HALF' }, { moduleName: 'M_HALF_DUP' }] });
  const all = await buildCluster(db(), { clusterId: 'C_ALL', modules: [{ moduleName: 'M_CORE' }, { moduleName: 'M_SPORT', status: 'REMOVED' }] });
  await db().update(clusters).set({ planningChannelId: 'RETAIL' }).where(eq(clusters.id, all.id));
  await buildCluster(db(), { clusterId: 'C_EMPTY' });
  await buildCluster(db(), { clusterId: 'C_OPT', collection: 'OPTICAL', modules: [{ moduleName: 'M_OPT' }] });
  await buildCluster(db(), { clusterId: 'C_VLT', brandCode: 'VLT', modules: [{ moduleName: 'M_VLT' }] });
  const gone = await buildCluster(db(), { clusterId: 'C_DELETED', modules: [{ moduleName: 'M_CORE' }] });
  await db().update(clusters).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(clusters.id, gone.id));
  await buildCluster(db(), { clusterId: 'C_FEB', monthId: 'M02_2027', modules: [{ moduleName: 'M_CORE' }] });
}

describe('POST /api/cluster/statisticFiltersByBrand', () => {
  it('offers, per category, the values of the active SKUs of the clusters in scope (bin, discontinued and deleted SKUs left out)', async () => {
    await start();
    await buildWorld();
    const aurSun = await options('admin', { brand: ['AUR'], collection: ['SUN'] });
    expect(values(aurSun.marketingTheme)).toEqual(['CORE', 'SPORT']);
    expect(aurSun.polar).toEqual([
      { value: 'YES', label: 'Yes' },
      { value: 'NO', label: 'No' },
    ]);
    expect(values(aurSun.gender)).toEqual(['MAN', 'UNISEX', 'WOMAN']);
    expect(values(aurSun.material)).toEqual(['ACETATE', 'METAL']);
    expect(values(aurSun.prizm)).toEqual(['NO']);

    expect(values((await options('admin', { brand: [], collection: [] })).marketingTheme)).toEqual(['CORE', 'HERITAGE', 'SPORT']);
    expect(values((await options('admin', { brand: ['VLT'], collection: [] })).marketingTheme)).toEqual(['HERITAGE']);
    // A caller limited to AUR never sees VLT's values.
    expect(values((await options('aurViewer', { brand: [], collection: [] })).marketingTheme)).toEqual(['CORE', 'SPORT']);
    expect(values((await options('aurViewer', { brand: ['VLT'], collection: [] })).marketingTheme)).toEqual([]);
    // A month without clusters offers nothing.
    const empty = await options('admin', { monthId: 'M10_2027' });
    expect(Object.values(empty).flat()).toEqual([]);
  });
});

describe('POST /api/cluster/statistic', () => {
  it('keeps a cluster whose share is exactly on a range boundary (inclusive) and drops it just outside', async () => {
    await start();
    await buildWorld();
    const aurSun = { brand: ['AUR'], collection: ['SUN'] };
    for (const [min, max] of [
      [50, 50],
      [0, 50],
      [50, 100],
    ] as const) {
      expect(ids(await search('admin', [filter('marketingTheme', 'CORE', min, max)], aurSun)), `${min}-${max}`).toContain('C_HALF');
    }
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 51, 100)], aurSun))).toEqual(['C_ALL']);
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 0, 49.9)], aurSun))).toEqual(['C_EMPTY']);
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 50, 50)], aurSun))).toEqual(['C_HALF']);
  });

  it('gives a cluster without active SKUs share 0 and orders the answer by label', async () => {
    await start();
    await buildWorld();
    expect(ids(await search('admin', [filter('gender', 'MAN', 0, 0)], { brand: ['AUR'] }))).toEqual(['C_EMPTY', 'C_OPT']);
    expect(ids(await search('admin', [filter('gender', 'MAN', 0, 100)], { brand: ['AUR'] }))).toEqual(['C_ALL', 'C_EMPTY', 'C_HALF', 'C_OPT']);
  });

  it('ANDs several filters, the yes/no attributes included', async () => {
    await start();
    await buildWorld();
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 50, 50), filter('polar', 'YES', 50, 50)]))).toEqual(['C_HALF']);
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 50, 50), filter('polar', 'YES', 0, 49)]))).toEqual([]);
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 100, 100), filter('polar', 'NO', 50, 50)]))).toEqual(['C_ALL']);
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 100, 100), filter('material', 'ACETATE', 100, 100)]))).toEqual(['C_OPT']);
    expect(ids(await search('admin', [filter('prizm', 'YES', 1, 100)]))).toEqual([]);
  });

  it('narrows by brand, collection and planning channel, and stays in the month among live clusters', async () => {
    await start();
    await buildWorld();
    const allCore = [filter('marketingTheme', 'CORE', 100, 100)];
    expect(ids(await search('admin', allCore))).toEqual(['C_ALL', 'C_OPT']);
    expect(ids(await search('admin', [filter('marketingTheme', 'CORE', 1, 100)]))).toEqual(['C_ALL', 'C_HALF', 'C_OPT']);
    expect(ids(await search('admin', allCore, { collection: ['OPTICAL'] }))).toEqual(['C_OPT']);
    expect(ids(await search('admin', allCore, { collection: ['SUN'] }))).toEqual(['C_ALL']);
    expect(ids(await search('admin', allCore, { planningChannel: ['RETAIL'] }))).toEqual(['C_ALL']);
    expect(ids(await search('admin', [filter('marketingTheme', 'HERITAGE', 100, 100)], { brand: ['VLT'] }))).toEqual(['C_VLT']);
    expect(ids(await search('admin', [filter('marketingTheme', 'HERITAGE', 100, 100)], { brand: ['AUR'] }))).toEqual([]);
  });

  it('never shows a cluster of a brand the caller may not view', async () => {
    await start();
    await buildWorld();
    const heritage = [filter('marketingTheme', 'HERITAGE', 0, 100)];
    expect(ids(await search('admin', heritage))).toContain('C_VLT');
    expect(ids(await search('aurViewer', heritage))).toEqual(['C_ALL', 'C_EMPTY', 'C_HALF', 'C_OPT']);
    expect(ids(await search('aurViewer', heritage, { brand: ['VLT'] }))).toEqual([]);
  });

  it('answers the row fields: brand, month, class (collection), label and LEGO month', async () => {
    await start();
    await buildWorld();
    const rows = await search('admin', [filter('marketingTheme', 'CORE', 100, 100)]);
    expect(rows).toEqual([
      { brand: 'AUR', clusterId: 'C_ALL', monthId: MONTH, classId: 'SUN', clusterLabel: 'C_ALL label', locked: false, userLock: null, legoMonth: true },
      { brand: 'AUR', clusterId: 'C_OPT', monthId: MONTH, classId: 'OPTICAL', clusterLabel: 'C_OPT label', locked: false, userLock: null, legoMonth: false },
    ]);
  });

  it('reports a cluster locked by another user, whose lock the page then cannot take; a free one is locked for the caller', async () => {
    await start();
    await buildWorld();
    const held = await post('/api/cluster/lock', 'other', [{ clusterId: 'C_HALF', monthId: MONTH }]);
    expect(held.json()[0].acquired).toBe(true);

    const before = await search('editor', [filter('marketingTheme', 'CORE', 1, 100)]);
    expect(before.find((c) => c.clusterId === 'C_HALF')).toMatchObject({ locked: true, userLock: 'other' });
    expect(before.find((c) => c.clusterId === 'C_ALL')).toMatchObject({ locked: false, userLock: null });

    const refused = await post('/api/cluster/lock', 'editor', [{ clusterId: 'C_HALF', monthId: MONTH }]);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()[0]).toMatchObject({ acquired: false, locked: true, userLock: 'other' });

    const taken = await post('/api/cluster/lock', 'editor', [{ clusterId: 'C_ALL', monthId: MONTH }]);
    expect(taken.json()[0]).toMatchObject({ acquired: true, userLock: 'editor' });
    const after = await search('other', [filter('marketingTheme', 'CORE', 1, 100)]);
    expect(after.find((c) => c.clusterId === 'C_ALL')).toMatchObject({ locked: true, userLock: 'editor' });
  });

  it('refuses bad bodies with 400: no slider, crossed or out-of-range sliders, unknown fields', async () => {
    await start();
    await buildWorld();
    const ok = { monthId: MONTH, brand: [], collection: [], planningChannel: [], filters: [filter('gender', 'MAN', 0, 100)] };
    expect((await post('/api/cluster/statistic', 'admin', ok)).statusCode).toBe(200);
    const bad: unknown[] = [
      { ...ok, filters: [] },
      { monthId: MONTH },
      { ...ok, filters: [filter('gender', 'MAN', 60, 40)] },
      { ...ok, filters: [filter('gender', 'MAN', -1, 40)] },
      { ...ok, filters: [filter('gender', 'MAN', 0, 101)] },
      { ...ok, filters: [{ ...filter('gender', 'MAN', 0, 100), field: 'colour' }] },
      { ...ok, filters: [filter('gender', '', 0, 100)] },
      { ...ok, filters: [{ field: 'gender', searchValue: 'MAN', minRange: '0', maxRange: 100 }] },
      { ...ok, monthId: 'January' },
      { ...ok, monthId: [MONTH] },
      { ...ok, brand: 'AUR' },
      { ...ok, extra: true },
    ];
    for (const body of bad) {
      const res = await post('/api/cluster/statistic', 'admin', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
    expect((await post('/api/cluster/statisticFiltersByBrand', 'admin', { brand: ['AUR'] })).statusCode).toBe(400);
    expect((await post('/api/cluster/statisticFiltersByBrand', 'admin', { monthId: MONTH, collection: 'SUN' })).statusCode).toBe(400);
  });

  it('answers 413 past MAX_SEARCH_RESULTS', async () => {
    await start({ MAX_SEARCH_RESULTS: 3 });
    await buildWorld();
    expect(ids(await search('admin', [filter('gender', 'MAN', 0, 100)], { brand: ['AUR'], collection: ['SUN'] }))).toEqual(['C_ALL', 'C_EMPTY', 'C_HALF']);
    const res = await post('/api/cluster/statistic', 'admin', { monthId: MONTH, brand: ['AUR'], filters: [filter('gender', 'MAN', 0, 100)] });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('tooManyResults');
  });
});
