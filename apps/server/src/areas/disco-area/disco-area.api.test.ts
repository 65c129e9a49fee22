import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DISCO_PAGE_SIZE, DISCO_TEXTS, MAX_REPLACEMENT_PROPOSALS } from '@bo/shared/disco-area';
import { BELL_USERS, useAreaApp } from '../../../test/area-test-app.js';
import { AUR_EU, buildModule, buildSku, buildSkuStats } from '../../../test/builders.js';
import type { TestUsers } from '../../../test/test-app.js';
import { locks, modules } from '../../db/schema.js';

const USERS = {
  ...BELL_USERS,
  /** Views AUR in both zones, edits it in the EU only. */
  wide: { grants: { view: { brands: ['AUR'], zones: ['EU', 'NA'] }, edit: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

const { start, app, db, as } = useAreaApp(USERS);

const call = async (method: 'GET' | 'POST', url: string, user: User, payload?: object) =>
  app().inject({ method, url, headers: await as(user), ...(payload ? { payload } : {}) });
type Row = { upc: string; moduleName: string; monthId: string; type: string; brandCode: string };
const list = async (view: 'disco' | 'removed', user: User, body: object = {}) => {
  const res = await call('POST', view === 'disco' ? '/api/sku/skuDiscoInfo' : '/api/sku/skuDeletedInfo', user, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; maxResultsForPage: number; skuDiscoTypeDtoList: Row[] };
};
const keys = (page: { skuDiscoTypeDtoList: Row[] }) => page.skuDiscoTypeDtoList.map((r) => `${r.upc}@${r.moduleName}/${r.monthId}`).sort();
const at = (upc: string, moduleName: string, monthId = 'M01_2027') => `${upc}@${moduleName}/${monthId}`;

/** One SKU per rule of the definitions, and one per way a line must not be listed. */
async function buildWorld() {
  const s = {
    flagged: await buildSku(db(), { flagDisco: true, discoType: 'Super disco', gedConfirmed: true, gedExpireDate: '2099-06-30', skuCode: 'FLAG-1', materialCode: 'MAT-F' }),
    ged: await buildSku(db(), { gedExpireDate: '2020-01-31', skuCode: 'GED-1' }),
    gedFuture: await buildSku(db(), { gedExpireDate: '2099-01-31' }),
    sap: await buildSku(db(), { sapStatus: 'Z', skuCode: 'SAP-1' }),
    sapFine: await buildSku(db(), { sapStatus: 'A' }),
    binned: await buildSku(db(), { flagDisco: true }),
    closed: await buildSku(db(), { flagDisco: true }),
    inDeleted: await buildSku(db(), { flagDisco: true }),
    removed: await buildSku(db(), { deleted: true, skuCode: 'DEL-1' }),
    removedDisco: await buildSku(db(), { deleted: true, flagDisco: true, discoType: 'Super disco', skuCode: 'DEL-2' }),
    plain: await buildSku(db()),
    vlt: await buildSku(db(), { flagDisco: true, brandCode: 'VLT' }),
  };
  await buildModule(db(), {
    moduleName: 'A',
    skus: [...[s.flagged, s.ged, s.gedFuture, s.sapFine, s.removed, s.plain].map((x) => ({ upc: x.upc })), { upc: s.binned.upc, status: 'REMOVED' as const }],
  });
  await buildModule(db(), { moduleName: 'A', monthId: 'M02_2027', skus: [{ upc: s.flagged.upc }, { upc: s.sap.upc }] });
  await buildModule(db(), { moduleName: 'B', collection: 'OPTICAL', monthId: 'M02_2027', skus: [{ upc: s.removedDisco.upc }] });
  await buildModule(db(), { moduleName: 'OLD', monthId: 'M12_2026', skus: [{ upc: s.closed.upc }, { upc: s.removed.upc }] });
  const gone = await buildModule(db(), { moduleName: 'GONE', skus: [{ upc: s.inDeleted.upc }, { upc: s.removed.upc }] });
  await db().update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.id, gone.id));
  await buildModule(db(), { moduleName: 'V', brandCode: 'VLT', skus: [{ upc: s.vlt.upc }] });
  return s;
}

describe('the definitions', () => {
  it('lists flagged, GED-expired and SAP-disabled SKUs still in live modules of open months, one row per module and month', async () => {
    await start();
    const s = await buildWorld();
    const admin = await list('disco', 'admin');
    expect(keys(admin)).toEqual(
      [at(s.flagged.upc, 'A'), at(s.flagged.upc, 'A', 'M02_2027'), at(s.ged.upc, 'A'), at(s.sap.upc, 'A', 'M02_2027'), at(s.vlt.upc, 'V')].sort(),
    );
    expect(admin.count).toBe(5);
    expect(admin.maxResultsForPage).toBe(DISCO_PAGE_SIZE);
    // Not listed: a future GED date, a SAP status that is not disabled, a line in the bin, a closed month, a deleted module, a plain SKU.
    for (const upc of [s.gedFuture.upc, s.sapFine.upc, s.binned.upc, s.closed.upc, s.inDeleted.upc, s.plain.upc]) {
      expect(admin.skuDiscoTypeDtoList.some((r) => r.upc === upc), upc).toBe(false);
    }
  });

  it('lists SKUs removed from the range that still sit in live modules of open months (and not as discontinued)', async () => {
    await start();
    const s = await buildWorld();
    expect(keys(await list('removed', 'admin'))).toEqual([at(s.removed.upc, 'A'), at(s.removedDisco.upc, 'B', 'M02_2027')].sort());
    expect((await list('disco', 'admin')).skuDiscoTypeDtoList.some((r) => r.upc === s.removedDisco.upc)).toBe(false);
  });

  it('answers the row fields in a stable order: month, brand, module, SKU', async () => {
    await start();
    const s = await buildWorld();
    await db().insert(locks).values({ itemType: 'module', itemKey: 'A', monthId: 'M01_2027', owner: 'someone' });
    const rows = (await list('disco', 'editor')).skuDiscoTypeDtoList;
    expect(rows.map((r) => `${r.monthId} ${r.moduleName} ${r.upc}`)).toEqual([
      `M01_2027 A ${s.flagged.upc}`,
      `M01_2027 A ${s.ged.upc}`,
      `M02_2027 A ${s.flagged.upc}`,
      `M02_2027 A ${s.sap.upc}`,
    ]);
    expect(rows[0]).toEqual({
      upc: s.flagged.upc,
      type: 'Super disco',
      gedConfirmed: true,
      gedExpiryDate: '2099-06-30',
      materialCode: 'MAT-F',
      moduleName: 'A',
      monthId: 'M01_2027',
      moduleLabel: 'A label',
      skuCode: 'FLAG-1',
      brandCode: 'AUR',
      commodity: 'SUN',
      legoMonth: true,
      locked: true,
      userLock: 'someone',
    });
    expect(rows.map((r) => r.type)).toEqual(['Super disco', 'GED expired', 'Super disco', 'SAP disabled']);
    expect(rows[2]).toMatchObject({ legoMonth: false, locked: false, userLock: null });
    expect((await list('removed', 'admin')).skuDiscoTypeDtoList.map((r) => r.type)).toEqual(['Removed', 'Removed']);
  });

  it('the home bells and the alert call count the SKUs of the unfiltered lists, per user', async () => {
    await start();
    await buildWorld();
    for (const user of ['admin', 'editor', 'vlt'] as const) {
      const distinct = async (view: 'disco' | 'removed') => new Set((await list(view, user)).skuDiscoTypeDtoList.map((r) => r.upc)).size;
      const expected = { numDisco: await distinct('disco'), numRemoved: await distinct('removed') };
      const bells = await call('GET', '/api/sku/badgeCounts', user);
      const alert = await call('GET', '/api/sku/skuDiscoAlert/', user);
      expect(bells.json(), user).toEqual(expected);
      expect(alert.json(), user).toEqual(expected);
    }
    expect((await call('GET', '/api/sku/badgeCounts', 'admin')).json()).toEqual({ numDisco: 4, numRemoved: 2 });
  });
});

describe('rights', () => {
  it('refuses every call of the area to a caller without an edit grant (403) and never shows another brand', async () => {
    await start();
    const s = await buildWorld();
    for (const [method, url, body] of [
      ['POST', '/api/sku/skuDiscoInfo', {}],
      ['POST', '/api/sku/skuDeletedInfo', {}],
      ['GET', '/api/sku/skuDiscoInfoFilters', undefined],
      ['GET', '/api/sku/skuDeletedInfoFilters', undefined],
      ['POST', '/api/sku/skuDiscoInfoFilters', {}],
      ['POST', '/api/sku/skuDeletedInfoFilters', {}],
      ['GET', '/api/sku/skuDiscoAlert/', undefined],
      ['POST', '/api/sku/replacementProposals', { upc: s.flagged.upc }],
    ] as const) {
      const res = await call(method, url, 'viewer', body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden', message: DISCO_TEXTS.noRight });
    }
    expect(keys(await list('disco', 'vlt'))).toEqual([at(s.vlt.upc, 'V')]);
    expect((await list('disco', 'editor')).skuDiscoTypeDtoList.some((r) => r.brandCode === 'VLT')).toBe(false);
    const options = (await call('GET', '/api/sku/skuDiscoInfoFilters', 'editor')).json();
    expect(options.brandCode).toEqual([{ value: 'AUR', label: 'Aurora Optics' }]);
  });
});

describe('filters', () => {
  it('offers the values found among the rows, each narrowed by the other chosen filters', async () => {
    await start();
    const s = await buildWorld();
    const all = (await call('GET', '/api/sku/skuDiscoInfoFilters', 'admin')).json();
    expect(all.brandCode).toEqual([{ value: 'AUR', label: 'Aurora Optics' }, { value: 'VLT', label: 'Velto' }]);
    expect(all.months.map((o: { value: string }) => o.value)).toEqual(['M01_2027', 'M02_2027']);
    expect(all.type.map((o: { value: string }) => o.value)).toEqual(['Disco', 'GED expired', 'SAP disabled', 'Super disco']);
    expect(all.starsZones).toEqual([{ value: 'EU', label: 'Europe' }]);
    expect(all.moduleLabel.map((o: { value: string }) => o.value)).toEqual(['A label', 'V label']);
    expect(all.storeCount).toEqual([{ value: '0', label: '0' }]);

    const narrowed = await call('POST', '/api/sku/skuDiscoInfoFilters', 'admin', { months: ['M02_2027'] });
    expect(narrowed.statusCode).toBe(200);
    const n = narrowed.json();
    expect(n.upc.map((o: { value: string }) => o.value).sort()).toEqual([s.flagged.upc, s.sap.upc].sort());
    expect(n.brandCode.map((o: { value: string }) => o.value)).toEqual(['AUR']);
    // A filter's own options stay: the other months can still be added.
    expect(n.months.map((o: { value: string }) => o.value)).toEqual(['M01_2027', 'M02_2027']);
    const removed = (await call('POST', '/api/sku/skuDeletedInfoFilters', 'admin', {})).json();
    expect(removed.commodity).toEqual([{ value: 'OPTICAL', label: 'Optical' }, { value: 'SUN', label: 'Sun' }]);
  });

  it('narrows the lists by each filter (a union inside one, an intersection between them)', async () => {
    await start();
    const s = await buildWorld();
    expect(keys(await list('disco', 'admin', { brandCode: ['VLT'] }))).toEqual([at(s.vlt.upc, 'V')]);
    expect(keys(await list('disco', 'admin', { type: ['SAP disabled', 'GED expired'] }))).toEqual([at(s.ged.upc, 'A'), at(s.sap.upc, 'A', 'M02_2027')].sort());
    expect(keys(await list('disco', 'admin', { months: ['M02_2027'], upc: [s.flagged.upc] }))).toEqual([at(s.flagged.upc, 'A', 'M02_2027')]);
    expect(keys(await list('disco', 'admin', { skuCode: ['GED-1'] }))).toEqual([at(s.ged.upc, 'A')]);
    expect(keys(await list('disco', 'admin', { materialCode: ['MAT-F'], moduleLabel: ['A label'] }))).toHaveLength(2);
    expect((await list('disco', 'admin', { starsZones: ['NA'] })).count).toBe(0);
    expect((await list('disco', 'admin', { commodity: ['OPTICAL'] })).count).toBe(0);
    expect(keys(await list('removed', 'admin', { commodity: ['OPTICAL'] }))).toEqual([at(s.removedDisco.upc, 'B', 'M02_2027')]);
    expect((await list('disco', 'admin', { storeCount: ['0'] })).count).toBe(5);
    for (const body of [{ pageIndex: -1 }, { months: 'M01_2027' }, { extra: [] }, { type: [''] }]) {
      expect((await call('POST', '/api/sku/skuDiscoInfo', 'admin', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('paging', () => {
  it('pages by maxResultsForPage: a full first page, the last page, an empty page past the end, in a stable order', async () => {
    await start();
    const upcs: string[] = [];
    for (let i = 0; i < DISCO_PAGE_SIZE + 3; i++) upcs.push((await buildSku(db(), { flagDisco: true, skuCode: `S${String(i).padStart(3, '0')}` })).upc);
    await buildModule(db(), { moduleName: 'MANY', skus: upcs.map((upc) => ({ upc })) });
    const first = await list('disco', 'admin', { pageIndex: 0 });
    expect(first.count).toBe(DISCO_PAGE_SIZE + 3);
    expect(first.skuDiscoTypeDtoList).toHaveLength(DISCO_PAGE_SIZE);
    const last = await list('disco', 'admin', { pageIndex: 1 });
    expect(last.skuDiscoTypeDtoList).toHaveLength(3);
    expect([...first.skuDiscoTypeDtoList, ...last.skuDiscoTypeDtoList].map((r) => r.upc)).toEqual(upcs);
    expect(await list('disco', 'admin', { pageIndex: 2 })).toEqual({ count: DISCO_PAGE_SIZE + 3, maxResultsForPage: DISCO_PAGE_SIZE, skuDiscoTypeDtoList: [] });
  });
});

describe('guided replacement', () => {
  /** A discontinued SKU at 150 € in PILOT modules, and candidates around it. */
  async function buildReplacementWorld() {
    const old = await buildSku(db(), { flagDisco: true, srp: 150 });
    const cand = async (srp: number, over: Parameters<typeof buildSku>[1] = {}) => buildSku(db(), { srp, ...over });
    const c = {
      lowSell: await cand(150),
      highSell: await cand(150),
      plus10: await cand(160),
      minus20: await cand(130),
      plus25: await cand(175),
      plus50: await cand(200),
      disco: await cand(150, { flagDisco: true }),
      gedExpired: await cand(150, { gedExpireDate: '2020-01-01' }),
      sapDisabled: await cand(150, { sapStatus: 'I' }),
      removed: await cand(150, { deleted: true }),
      otherBrand: await cand(150, { brandCode: 'VLT' }),
      otherFamily: await cand(150),
      otherCollection: await cand(150, { collection: 'OPTICAL' }),
      binnedOnly: await cand(150),
    };
    // Sell-out in the window (M08_2026 … M01_2027) decides between equal prices; M02_2027 lies outside it.
    await buildSkuStats(db(), c.lowSell.upc, 'M01_2027', { sellOut: 5 });
    await buildSkuStats(db(), c.lowSell.upc, 'M02_2027', { sellOut: 1000 });
    await buildSkuStats(db(), c.highSell.upc, 'M01_2027', { sellOut: 40 });
    await buildSkuStats(db(), c.highSell.upc, 'M12_2026', { sellOut: 10 });
    const active = [c.lowSell, c.highSell, c.plus10, c.minus20, c.plus25, c.plus50, c.disco, c.gedExpired, c.sapDisabled, c.removed, c.otherCollection];
    await buildModule(db(), { moduleName: 'PEERS', monthId: 'M12_2026', skus: [...active.map((x) => ({ upc: x.upc })), { upc: c.binnedOnly.upc, status: 'REMOVED' }] });
    await buildModule(db(), { moduleName: 'OLDM', skus: [{ upc: old.upc, minValue: 2 }, { upc: c.highSell.upc, mustHave: false }] });
    await buildModule(db(), { moduleName: 'OLDM', monthId: 'M02_2027', skus: [{ upc: old.upc, mustHave: false, minValue: 1.5 }] });
    await buildModule(db(), { moduleName: 'OLDNA', zones: ['NA'], skus: [{ upc: old.upc }] });
    await buildModule(db(), { moduleName: 'OLDBIN', skus: [{ upc: old.upc, status: 'REMOVED' }] });
    await buildModule(db(), { moduleName: 'OLDCLOSED', monthId: 'M12_2026', skus: [{ upc: old.upc }] });
    await buildModule(db(), { moduleName: 'AVI', macroFamily: 'AVIATOR', skus: [{ upc: c.otherFamily.upc }] });
    await buildModule(db(), { moduleName: 'VPEERS', brandCode: 'VLT', skus: [{ upc: c.otherBrand.upc }] });
    return { old, c };
  }
  const proposals = async (user: User, upc: string) => call('POST', '/api/sku/replacementProposals', user, { upc });

  it('proposes at most five active SKUs of the same brand, family and collection, by closest price then sell-out over the window', async () => {
    await start();
    const { old, c } = await buildReplacementWorld();
    const res = await proposals('admin', old.upc);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.sku).toMatchObject({ upc: old.upc, brandCode: 'AUR', collection: 'SUN', macroFamilies: ['PILOT'], srp: 150 });
    expect(body.rollingMonths).toEqual(['M08_2026', 'M09_2026', 'M10_2026', 'M11_2026', 'M12_2026', 'M01_2027']);
    expect(body.proposals).toHaveLength(MAX_REPLACEMENT_PROPOSALS);
    expect(body.proposals.map((p: { upc: string }) => p.upc)).toEqual([c.highSell.upc, c.lowSell.upc, c.plus10.upc, c.minus20.upc, c.plus25.upc]);
    expect(body.proposals[0]).toMatchObject({ sellOut: 50, srp: 150, model: 'AU1000', color: '001', size: '52', alreadyIn: 1 });
    expect(body.proposals[1]).toMatchObject({ sellOut: 5, alreadyIn: 0 });
  });

  it('never proposes a discontinued or removed SKU, another brand, family or collection', async () => {
    await start();
    const { old, c } = await buildReplacementWorld();
    // Without the close candidates, what is left is still only of the right kind.
    const res = await proposals('admin', old.upc);
    const offered = new Set(res.json().proposals.map((p: { upc: string }) => p.upc));
    for (const bad of [c.disco, c.gedExpired, c.sapDisabled, c.removed, c.otherBrand, c.otherFamily, c.otherCollection, c.binnedOnly, old]) {
      expect(offered.has(bad.upc), bad.upc).toBe(false);
    }
    // With fewer peers (only the one beside it in OLDM), fewer proposals, never a wrong one.
    await db().update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.moduleName, 'PEERS'));
    expect((await proposals('admin', old.upc)).json().proposals.map((p: { upc: string }) => p.upc)).toEqual([c.highSell.upc]);
  });

  it('answers the lines the caller may change: live modules of open months they may edit', async () => {
    await start();
    const { old } = await buildReplacementWorld();
    const usages = async (user: User) => (await proposals(user, old.upc)).json().usages;
    expect(await usages('wide')).toEqual([
      { moduleName: 'OLDM', moduleLabel: 'OLDM label', monthId: 'M01_2027', mustHave: true, minValue: 2 },
      { moduleName: 'OLDM', moduleLabel: 'OLDM label', monthId: 'M02_2027', mustHave: false, minValue: 1.5 },
    ]);
    expect((await usages('admin')).map((u: { moduleName: string; monthId: string }) => `${u.moduleName}/${u.monthId}`)).toEqual([
      'OLDM/M01_2027',
      'OLDNA/M01_2027',
      'OLDM/M02_2027',
    ]);
  });

  it('answers 404 for a SKU that is not among the caller’s discontinued or removed SKUs', async () => {
    await start();
    const { old, c } = await buildReplacementWorld();
    expect((await proposals('admin', c.lowSell.upc)).statusCode).toBe(404);
    expect((await proposals('admin', '000000000000')).statusCode).toBe(404);
    const otherBrand = await proposals('vlt', old.upc);
    expect(otherBrand.statusCode).toBe(404);
    expect(otherBrand.json().message).toBe(DISCO_TEXTS.notListed);
    expect((await call('POST', '/api/sku/replacementProposals', 'admin', { upc: '' })).statusCode).toBe(400);
  });
});
