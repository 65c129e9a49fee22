import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import { HISTORY_PAGE_SIZE, type HistoryPage, type ModuleVersionDetail } from '@bo/shared/item-versions';
import { AUR_EU, buildCluster, buildModule, buildStore } from '../../../test/builders.js';
import { withJobRunner } from '../../../test/cluster-test-app.js';
import { multipartBody } from '../../../test/multipart.js';
import type { TestUsers } from '../../../test/test-app.js';
import { buildModuleA, buildVersionsApp, type VersionsApp } from '../../../test/versions-app.js';
import { queryRows, type Db } from '../../db/client.js';
import { skus } from '../../db/schema.js';
import { recordVersionsInBulk, recordWrittenVersions } from '../../items/lifecycle/item-versions.repository.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  submitter: { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
  vltViewer: { role: 'VIEWER', grants: { view: { brands: ['VLT'], zones: ['EU'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let { app, db, h, upc, inTx } = {} as VersionsApp<User>;

beforeEach(async () => {
  ({ app, db, h, upc, inTx } = await buildVersionsApp(USERS));
  await inTx((tx) => buildModuleA(tx, upc, { moduleDescription: 'first', skus: [{ upc: upc[4]!, mustHave: true, status: 'REMOVED' }] }));
});
afterEach(async () => {
  await app.close();
});

const post = (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: h[user], payload: payload as object });
const get = (url: string, user: User) => app.inject({ method: 'GET', url, headers: h[user] });
const key = { moduleName: 'MOD_A', monthId: 'M01_2027' };
const historyOf = async (user: User = 'editor', page = 0, k = key) => {
  const res = await get(`/api/module/history?moduleName=${k.moduleName}&monthId=${k.monthId}&page=${page}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as HistoryPage;
};
const versionOf = async (n: number, user: User = 'editor') => {
  const res = await get(`/api/module/history/version/${n}?moduleName=MOD_A&monthId=M01_2027`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ModuleVersionDetail;
};
type Line = { upc: string; mustHave: boolean; minValue?: number; moduleCompositionStatus?: string };
const line = (u: string, mustHave: boolean, minValue = 1): Line => ({ upc: u, mustHave, minValue, moduleCompositionStatus: 'ADDED' });
async function save(user: User, lines: Line[], query = '', description?: string) {
  expect((await post('/api/module/lock', user, [key])).json()[0].acquired).toBe(true);
  const body = { ...key, productDtoList: lines.map((l) => ({ moduleCompositionStatus: 'ADDED', ...l })), ...(description ? { moduleDescription: description } : {}) };
  return post(`/api/module/save${query}`, user, body);
}

describe('versions recorded for every action', () => {
  it('records the creation, then a save with who, when and a one-line summary', async () => {
    const res = await save('editor', [line(upc[0]!, false, 1), line(upc[2]!, true), line(upc[3]!, true)]);
    expect(res.statusCode, res.body).toBe(200);
    const page = await historyOf();
    expect(page).toMatchObject({ number: 0, size: HISTORY_PAGE_SIZE, totalElements: 2, totalPages: 1 });
    expect(page.content.map((e) => [e.version, e.action, e.user, e.summary, e.revertOf])).toEqual([
      [2, 'save', 'editor', '+2 SKUs, −1, 1 MH→EL', null],
      [1, 'create', 'system', 'first version', null],
    ]);
    expect(Date.parse(page.content[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
    // The version's content: active lines only (the bin is left out), in the editor's order.
    expect((await versionOf(1)).content).toEqual({
      moduleDescription: 'first',
      lines: [
        { upc: upc[0], mustHave: true, minValue: 1 },
        { upc: upc[1], mustHave: false, minValue: 2 },
      ],
    });
  });

  it('records a publish (what was sent), and nothing more when the planning system accepts it', async () => {
    expect((await post('/api/module/lock', 'submitter', [key])).statusCode).toBe(200);
    const res = await post('/api/module/publish', 'submitter', { ...key, productDtoList: [line(upc[0]!, true, 5)] });
    expect(res.statusCode, res.body).toBe(200);
    await app.jobs.drain();
    const [status] = await queryRows<{ status: string }>(db, sql`SELECT status FROM modules WHERE module_name = 'MOD_A'`);
    expect(status!.status).toBe('SUBMITTED');
    const page = await historyOf();
    expect(page.content.map((e) => [e.version, e.action, e.user, e.summary])).toEqual([
      [2, 'publish', 'submitter', '−1 SKU, 1 min value'],
      [1, 'create', 'system', 'first version'],
    ]);
  });

  it('records a copy in the destination month', async () => {
    const res = await withJobRunner(app, post('/api/module/copyCompositions', 'admin', { modules: [{ ...key, destinationMonthList: ['M02_2027'] }], toPublish: false }));
    expect(res.json()).toMatchObject({ copied: [{ moduleName: 'MOD_A', months: ['M02_2027'] }], done: true });
    const page = await historyOf('editor', 0, { moduleName: 'MOD_A', monthId: 'M02_2027' });
    expect(page.content.map((e) => [e.action, e.user, e.summary])).toEqual([['copy', 'admin', 'first version']]);
    expect((await historyOf()).totalElements).toBe(1); // the source is untouched
  });

  it('records a massive edit', async () => {
    const res = await post('/api/module/massiveEdit/', 'editor', {
      massiveEditList: [{ moduleLabels: ['MOD_A label'], monthIdList: ['M01_2027'], moduleDescription: 'by massive edit' }],
      toPublish: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    await app.jobs.drain();
    expect((await historyOf()).content.map((e) => [e.action, e.user, e.summary])).toEqual([
      ['massiveEdit', 'editor', 'description'],
      ['create', 'system', 'first version'],
    ]);
  });

  it('records an import, of an existing module and of a new one', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Modules');
    ws.addRow(['Module name', 'Month', 'UPC', 'MH/EL', 'Min value', 'Module label', 'Macro family', 'Brand', 'Collection']);
    ws.addRow(['MOD_A', 'M01_2027', upc[0]!, 'MH', 3]);
    ws.addRow(['MOD_NEW', 'M02_2027', upc[2]!, 'EL', 2, 'New module', 'PILOT', 'AUR', 'SUN']);
    const { payload, headers } = multipartBody([{ field: 'excelFile', fileName: 'modules.xlsx', content: Buffer.from(await wb.xlsx.writeBuffer()) }]);
    const res = await app.inject({ method: 'POST', url: '/api/upload/module', headers: { ...h.admin, ...headers }, payload });
    expect(res.statusCode, res.body).toBe(200);
    await app.jobs.drain();
    expect((await historyOf()).content[0]).toMatchObject({ version: 2, action: 'import', user: 'admin' });
    const created = await historyOf('editor', 0, { moduleName: 'MOD_NEW', monthId: 'M02_2027' });
    expect(created.content.map((e) => [e.action, e.user])).toEqual([['import', 'admin']]);
  });

  it('records the deletion restore; a deletion alone changes no content and adds nothing', async () => {
    const del = await app.inject({ method: 'DELETE', url: '/api/module', headers: h.admin, payload: [key] });
    expect(del.statusCode, del.body).toBe(200);
    const restored = await post('/api/module/restore', 'admin', [{ moduleName: 'MOD_A' }]);
    expect(restored.json()).toEqual({ restored: ['MOD_A'], notRestored: [] });
    const actions = (await queryRows<{ action: string }>(db, sql`SELECT action FROM item_versions WHERE item_key = 'MOD_A' ORDER BY version`)).map((r) => r.action);
    expect(actions).toEqual(['create', 'restore']);
  });

  it('records one version per transaction, and an unnamed write as a change by the row’s updater', async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE modules SET module_description = 'x', version = version + 1, updated_by = 'someone' WHERE module_name = 'MOD_A'`);
      await tx.execute(sql`UPDATE modules SET module_description = 'y', version = version + 1 WHERE module_name = 'MOD_A'`);
    });
    const page = await historyOf();
    expect(page.content.map((e) => [e.version, e.action, e.user, e.summary])).toEqual([
      [2, 'change', 'someone', 'description'],
      [1, 'create', 'system', 'first version'],
    ]);
    expect((await versionOf(2)).content.moduleDescription).toBe('y');
    // A version bump that changes nothing is not a version.
    await db.execute(sql`UPDATE modules SET version = version + 1 WHERE module_name = 'MOD_A'`);
    expect((await historyOf()).totalElements).toBe(2);
  });
});

describe('bulk writes (the release loader)', () => {
  it('records what a bulk transaction wrote, set-wise at its end, and only what changed', async () => {
    const bulk = (write: (tx: Db) => Promise<unknown>) =>
      db.transaction(async (tx) => {
        await recordVersionsInBulk(tx, 'release', 'loader');
        await write(tx as unknown as Db);
        return recordWrittenVersions(tx);
      });
    const recorded = await bulk(async (tx) => {
      await tx.execute(sql`UPDATE module_skus SET min_value = 9 WHERE upc = ${upc[0]!}`);
      await tx.execute(sql`UPDATE modules SET version = version + 1, updated_at = now() WHERE module_name = 'MOD_A'`);
      await buildModule(tx, { moduleName: 'MOD_LOADED', skus: [{ upc: upc[3]! }] });
    });
    expect(recorded).toBe(2);
    expect((await historyOf()).content[0]).toMatchObject({ version: 2, action: 'release', user: 'loader', summary: '1 min value' });
    const loaded = await historyOf('editor', 0, { moduleName: 'MOD_LOADED', monthId: 'M01_2027' });
    expect(loaded.content.map((e) => [e.action, e.summary])).toEqual([['release', 'first version']]);
    // Loading the same again changes nothing: no version.
    expect(await bulk((tx) => tx.execute(sql`UPDATE modules SET version = version + 1, updated_at = now()`))).toBe(0);
    expect((await historyOf()).totalElements).toBe(2);
  });
});

describe('paging', () => {
  it('pages newest first, 20 a page, each summary against the version before it', async () => {
    for (let i = 0; i < 21; i++) expect((await save('editor', [line(upc[0]!, true, i + 10)])).statusCode).toBe(200);
    const first = await historyOf();
    expect(first).toMatchObject({ number: 0, size: 20, totalElements: 22, totalPages: 2 });
    expect(first.content.map((e) => e.version)).toEqual(Array.from({ length: 20 }, (_, i) => 22 - i));
    expect(first.content[0]!.summary).toBe('1 min value');
    const second = await historyOf('editor', 1);
    expect(second.content.map((e) => [e.version, e.summary])).toEqual([
      [2, '−1 SKU, 1 min value'],
      [1, 'first version'],
    ]);
    expect((await historyOf('editor', 5)).content).toEqual([]);
  });
});

describe('revert', () => {
  it('change, save, revert to version 1 with revertOf=1, save: the composition equals version 1 and the history shows the revert', async () => {
    expect((await save('editor', [line(upc[1]!, true, 7), line(upc[3]!, false)], '', 'changed')).statusCode).toBe(200);
    const v1 = await versionOf(1);
    expect(v1.flags).toEqual({ missing: [], discontinued: [] });
    const res = await save(
      'editor',
      v1.content.lines.map((l) => line(l.upc, l.mustHave, l.minValue ?? 1)),
      '?revertOf=1',
      v1.content.moduleDescription ?? undefined,
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = await historyOf();
    expect(page.content[0]).toMatchObject({ version: 3, action: 'revert', user: 'editor', revertOf: 1 });
    expect((await versionOf(3)).content).toEqual(v1.content);
    const [now] = await queryRows<{ content: unknown }>(db, sql`SELECT item_version_content('module', id) AS content FROM modules WHERE module_name = 'MOD_A'`);
    expect(now!.content).toEqual(v1.content);
  });

  it('refuses a revert of a version the item does not have (400), and writes nothing', async () => {
    const res = await save('editor', [line(upc[0]!, true)], '?revertOf=9');
    expect(res.statusCode).toBe(400);
    expect((await historyOf()).totalElements).toBe(1);
    expect((await save('editor', [line(upc[0]!, true)], '?revertOf=abc')).statusCode).toBe(400);
  });

  it('keeps the save’s own rules: a viewer may not save a revert', async () => {
    const res = await post('/api/module/save?revertOf=1', 'vltViewer', { ...key, productDtoList: [line(upc[0]!, true)] });
    expect(res.statusCode).toBe(403);
  });

  it('flags SKUs of a version that no longer exist or are now discontinued', async () => {
    await db.update(skus).set({ deleted: true }).where(eq(skus.upc, upc[0]!));
    await db.update(skus).set({ flagDisco: true }).where(eq(skus.upc, upc[1]!));
    expect((await versionOf(1)).flags).toEqual({ missing: [upc[0]], discontinued: [upc[1]] });
  });

  it('records a cluster revert too', async () => {
    const store = await buildStore(db);
    await inTx((tx) => buildCluster(tx, { clusterId: 'CL_A', storeJdas: [store.storeJda], modules: [{ moduleName: 'MOD_A' }] }));
    expect((await post('/api/cluster/lock', 'editor', [{ clusterId: 'CL_A', monthId: 'M01_2027' }])).statusCode).toBe(200);
    const body = [{ clusterId: 'CL_A', monthId: 'M01_2027', modules: [{ moduleName: 'MOD_A', clusterCompositionStatus: 'REMOVED' }] }];
    expect((await post('/api/cluster/save', 'editor', body)).json().errorsMap).toEqual({});
    const back = [{ clusterId: 'CL_A', monthId: 'M01_2027', modules: [{ moduleName: 'MOD_A', clusterCompositionStatus: 'ADDED' }] }];
    expect((await post('/api/cluster/save?revertOf=1', 'editor', back)).json().errorsMap).toEqual({});
    const res = await get('/api/cluster/history?clusterId=CL_A&monthId=M01_2027', 'editor');
    expect((res.json() as HistoryPage).content.map((e) => [e.version, e.action, e.summary, e.revertOf])).toEqual([
      [3, 'revert', '+1 module', 1],
      [2, 'save', '−1 module', null],
      [1, 'create', 'first version', null],
    ]);
    const v1 = await get('/api/cluster/history/version/1?clusterId=CL_A&monthId=M01_2027', 'editor');
    expect(v1.json()).toMatchObject({
      content: { clusterDescription: '', stores: [store.storeJda], modules: ['MOD_A'], lias: ['LIA01'], classifications: [] },
      flags: { missingStores: [], missingModules: [] },
    });
  });
});

describe('rights and parameters', () => {
  it('refuses a viewer of another brand (403), an unknown item or version (404) and bad parameters (400)', async () => {
    expect((await get('/api/module/history?moduleName=MOD_A&monthId=M01_2027', 'vltViewer')).statusCode).toBe(403);
    expect((await get('/api/module/history/version/1?moduleName=MOD_A&monthId=M01_2027', 'vltViewer')).statusCode).toBe(403);
    expect((await post('/api/module/publishDiff', 'vltViewer', [key])).statusCode).toBe(403);
    expect((await get('/api/module/history?moduleName=NOPE&monthId=M01_2027', 'editor')).statusCode).toBe(404);
    const unknown = await get('/api/module/history/version/7?moduleName=MOD_A&monthId=M01_2027', 'editor');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Version not found');
    expect((await get('/api/module/history?moduleName=MOD_A&monthId=2027-01', 'editor')).statusCode).toBe(400);
    expect((await get('/api/module/history?moduleName=MOD_A&monthId=M01_2027&page=-1', 'editor')).statusCode).toBe(400);
    expect((await get('/api/module/history/version/0?moduleName=MOD_A&monthId=M01_2027', 'editor')).statusCode).toBe(400);
  });
});

describe('publish diff', () => {
  it('says a module was never published, and compares the unsaved composition with the last published version', async () => {
    const never = await post('/api/module/publishDiff', 'editor', [key]);
    expect(never.json()).toEqual([{ moduleName: 'MOD_A', monthId: 'M01_2027', lastPublished: null, previousMonth: null }]);

    expect((await post('/api/module/lock', 'submitter', [key])).statusCode).toBe(200);
    expect((await post('/api/module/publish', 'submitter', key)).statusCode).toBe(200);
    await app.jobs.drain();
    // The page's unsaved lines: upc0 MH→EL with min 1→4, upc1 EL→MH, upc2 added; nothing removed yet.
    const unsaved = [line(upc[0]!, false, 4), line(upc[1]!, true, 2), line(upc[2]!, true), { ...line(upc[3]!, true), moduleCompositionStatus: 'REMOVED' }];
    const res = await post('/api/module/publishDiff', 'editor', [{ ...key, productDtoList: unsaved }]);
    expect(res.statusCode, res.body).toBe(200);
    const [diff] = res.json();
    expect(diff.lastPublished).toMatchObject({ version: 2, diff: { added: [upc[2]], removed: [], mhToEl: [upc[0]], elToMh: [upc[1]], minChanged: [{ upc: upc[0], from: 1, to: 4 }] } });
    expect(typeof diff.lastPublished.at).toBe('string');
    // Without lines: the saved composition, the same as published.
    const saved = (await post('/api/module/publishDiff', 'editor', [key])).json()[0];
    expect(saved.lastPublished.diff).toEqual({ added: [], removed: [], mhToEl: [], elToMh: [], minChanged: [] });
  });

  it('compares with the previous month’s published version (a SUBMITTED month without a recorded publish counts as published)', async () => {
    await inTx((tx) => buildModule(tx, { moduleName: 'MOD_A', monthId: 'M12_2026', status: 'SUBMITTED', skus: [{ upc: upc[0]! }, { upc: upc[3]!, mustHave: false }] }));
    const [diff] = (await post('/api/module/publishDiff', 'editor', [key])).json();
    expect(diff.lastPublished).toBeNull();
    expect(diff.previousMonth).toEqual({
      monthId: 'M12_2026',
      diff: { added: [upc[1]], removed: [upc[3]], mhToEl: [], elToMh: [], minChanged: [] },
    });
    // A WIP previous month was never published: no comparison.
    await db.execute(sql`UPDATE modules SET status = 'WIP' WHERE month_id = 'M12_2026'`);
    expect((await post('/api/module/publishDiff', 'editor', [key])).json()[0].previousMonth).toBeNull();
  });

  it('compares a cluster: stores and modules added and removed, and how many stores gain or lose how many SKUs', async () => {
    const [s1, s2, s3] = [await buildStore(db), await buildStore(db), await buildStore(db)];
    await inTx((tx) => buildModule(tx, { moduleName: 'MOD_B', status: 'SUBMITTED', skus: [{ upc: upc[2]! }, { upc: upc[0]! }, { upc: upc[3]! }] }));
    await db.execute(sql`UPDATE modules SET status = 'SUBMITTED' WHERE module_name = 'MOD_A'`);
    await inTx((tx) => buildCluster(tx, { clusterId: 'CL_A', storeJdas: [s1.storeJda, s2.storeJda], modules: [{ moduleName: 'MOD_A' }] }));
    const ck = { clusterId: 'CL_A', monthId: 'M01_2027' };
    expect((await post('/api/cluster/publishDiff', 'editor', [ck])).json()).toEqual([{ ...ck, lastPublished: null, previousMonth: null }]);

    expect((await post('/api/cluster/lock', 'submitter', [ck])).statusCode).toBe(200);
    const published = await post('/api/cluster/publish', 'submitter', [ck]);
    expect(published.statusCode, published.body).toBe(200);
    await app.jobs.drain();
    // Now: s2 and s3 (s1 leaves), MOD_A and MOD_B (MOD_B adds upc2 and upc3; upc0 both have).
    await db.execute(sql`INSERT INTO cluster_stores (cluster_pk, store_jda) SELECT id, ${s3.storeJda} FROM clusters WHERE cluster_id = 'CL_A'`);
    await db.execute(sql`DELETE FROM cluster_stores WHERE store_jda = ${s1.storeJda}`);
    const saved = await post('/api/cluster/save', 'submitter', [{ ...ck, modules: [{ moduleName: 'MOD_A', clusterCompositionStatus: 'ADDED' }, { moduleName: 'MOD_B', clusterCompositionStatus: 'ADDED' }] }]);
    expect(saved.json().errorsMap, saved.body).toEqual({});
    const [diff] = (await post('/api/cluster/publishDiff', 'editor', [ck])).json();
    expect(diff.lastPublished.version).toBe(2);
    expect(diff.lastPublished.diff).toEqual({
      storesAdded: [s3.storeJda],
      storesRemoved: [s1.storeJda],
      modulesAdded: ['MOD_B'],
      modulesRemoved: [],
      // MOD_A has upc0 and upc1; with MOD_B: upc0..upc3. s2 gains 2, s3 (new) gets 4, s1 (gone) loses 2.
      skusPerStore: expect.arrayContaining([
        { gained: 2, lost: 0, stores: 1 },
        { gained: 4, lost: 0, stores: 1 },
        { gained: 0, lost: 2, stores: 1 },
      ]),
    });
    expect(diff.lastPublished.diff.skusPerStore).toHaveLength(3);
  });
});
