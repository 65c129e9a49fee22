import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { DeletionMonthStatus } from '@bo/shared/deletion';
import { buildCluster, buildModule, buildStore } from '../../../test/builders.js';
import { buildDeletionApp, buildModuleInMonths, moduleStatuses, type DeletionUser } from '../../../test/deletion-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { deletionRequests, modules, months } from '../../db/schema.js';
import { prepareRecreation } from '../../items/lifecycle/recreation.repository.js';
import { searchDeletedModules } from './deletion.service.js';
import { runDeletionSteps } from './deletion.steps.js';
import { currentMonthId, monthWindow } from './month-window.js';

let app: FastifyInstance;
let headersOf: TestApp<DeletionUser>['as'];
const db = () => app.database.db;
const ALL: DeletionMonthStatus[] = ['DELETION_PENDING', 'READY_TO_BE_DELETED', 'DELETION_IN_PROGRESS', 'DELETED', 'DELETION_ERROR'];

beforeEach(async () => {
  ({ app, as: headersOf } = await buildDeletionApp()); // window clock: 15 January 2027
});
afterEach(async () => {
  await app.close();
});

async function as(user: DeletionUser) {
  const headers = await headersOf(user);
  return {
    del: (url: string, payload: unknown[]) => app.inject({ method: 'DELETE', url, headers, payload: payload as object[] }),
    post: (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers, payload: payload as object }),
  };
}

const active = (monthId: string) => ({ monthId, status: 'ACTIVE', createdAfterDelete: false, uiVisible: true });
const absent = (monthId: string) => ({ monthId, status: 'NOT_PRESENT', createdAfterDelete: false, uiVisible: false });
const marked = (monthId: string, status = 'DELETION_PENDING') => ({ monthId, status, createdAfterDelete: false, uiVisible: false });

describe('POST /api/module/deleted', () => {
  it('lists each deleted module once with its months in the window', async () => {
    await buildModuleInMonths(db(), { moduleName: 'MOD1' }, ['M12_2026', 'M01_2027', 'M02_2027']);
    await buildModule(db(), { moduleName: 'LIVE' });
    const admin = await as('admin');
    await admin.del('/api/module', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    // Deleted twice (restored in between): still one item, speaking for its newest request.
    await admin.post('/api/module/restore', [{ moduleName: 'MOD1' }]);
    await admin.del('/api/module', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);

    const res = await (await as('deleter')).post('/api/module/deleted', { status: ALL });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      content: [
        {
          moduleName: 'MOD1',
          moduleLabel: 'MOD1 label',
          brand: 'AUR',
          // The first month with a row from the start month on (M12_2026 and M01_2027 are still live).
          status: 'DELETION_PENDING',
          errorMessage: null,
          deleteFromMonthId: 'M02_2027',
          openMonthList: [active('M12_2026'), active('M01_2027'), marked('M02_2027'), absent('M10_2027')],
        },
      ],
      number: 0,
      totalPages: 1,
      totalElements: 1,
      size: 50,
    });
  });

  it('shows 15 months back and 15 forward around the current month, only months in the table, sorted by year then month', async () => {
    await db().insert(months).values([
      { monthId: 'M05_2028', year: 2028, month: 5 },
      { monthId: 'M09_2025', year: 2025, month: 9 },
      { monthId: 'M04_2028', year: 2028, month: 4 },
      { monthId: 'M10_2025', year: 2025, month: 10 },
    ]);
    await buildModuleInMonths(db(), { moduleName: 'MOD1' }, ['M09_2025', 'M01_2027', 'M04_2028']);
    await (await as('admin')).del('/api/module', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    const res = await (await as('admin')).post('/api/module/deleted', { status: ALL });
    expect(res.json().content[0].openMonthList).toEqual([
      absent('M10_2025'),
      absent('M12_2026'),
      marked('M01_2027'),
      absent('M02_2027'),
      absent('M10_2027'),
      marked('M04_2028'),
    ]);

    // The clock is a parameter of the search: other "now"s move the window.
    const grants = [{ role: 'ADMIN', types: ['view' as const], rules: [], brands: ['AUR'], starsZones: ['EU'] }];
    const search = { status: ALL };
    const at = async (iso: string) =>
      (await searchDeletedModules(db(), grants, search, { pageNumber: 0, pageSize: 50 }, new Date(iso))).content[0]!.openMonthList.map((m) => m.monthId);
    expect(await at('2028-06-30T23:00:00Z')).toEqual(['M10_2027', 'M04_2028', 'M05_2028']); // window M03_2027 … M09_2029
    expect(await at('2024-06-01T00:00:00Z')).toEqual(['M09_2025']); // window M03_2023 … M09_2025
    expect(currentMonthId(new Date('2027-01-31T23:59:59Z'))).toBe('M01_2027');
    expect(monthWindow([{ monthId: 'M01_2027' }, { monthId: 'M10_2025' }, { monthId: 'M09_2025' }], new Date('2027-01-15T00:00:00Z'))).toEqual([
      'M10_2025',
      'M01_2027',
    ]);
  });

  it('keeps the items whose overall status is asked for; an empty status list answers an empty page', async () => {
    await buildModule(db(), { moduleName: 'PEND' });
    await buildModule(db(), { moduleName: 'GONE' });
    const admin = await as('admin');
    await admin.del('/api/module', [{ moduleName: 'GONE', monthId: 'M01_2027' }]);
    await runDeletionSteps(db(), { graceMs: 0 });
    await admin.del('/api/module', [{ moduleName: 'PEND', monthId: 'M01_2027' }]);

    const names = async (status: string[]) => {
      const res = await admin.post('/api/module/deleted', { status });
      expect(res.statusCode).toBe(200);
      return res.json().content.map((i: { moduleName: string; status: string }) => `${i.moduleName}:${i.status}`);
    };
    expect(await names(['DELETION_PENDING'])).toEqual(['PEND:DELETION_PENDING']);
    expect(await names(['DELETED'])).toEqual(['GONE:DELETED']);
    expect(await names(['DELETED', 'DELETION_PENDING'])).toEqual(['GONE:DELETED', 'PEND:DELETION_PENDING']);
    expect(await names(['DELETION_ERROR'])).toEqual([]);
    const empty = await admin.post('/api/module/deleted?pageNumber=0&pageSize=50', { status: [] });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ content: [], number: 0, totalPages: 0, totalElements: 0, size: 50 });
    const bad = await admin.post('/api/module/deleted', { status: ['GONE'] });
    expect(bad.statusCode).toBe(400);
  });

  it('pages: 50 items by default, page 0 first, totalPages rounded up, at most 500 per page', async () => {
    const names = Array.from({ length: 55 }, (_, i) => `M${String(i + 1).padStart(3, '0')}`);
    for (const moduleName of names) await buildModule(db(), { moduleName });
    const admin = await as('admin');
    const del = await admin.del(
      '/api/module',
      names.map((moduleName) => ({ moduleName, monthId: 'M01_2027' })),
    );
    expect(del.json().deleted).toHaveLength(55);

    const first = (await admin.post('/api/module/deleted', { status: ALL })).json();
    expect(first).toMatchObject({ number: 0, totalPages: 2, totalElements: 55, size: 50 });
    expect(first.content).toHaveLength(50);
    expect(first.content[0].moduleName).toBe('M001');
    const second = (await admin.post('/api/module/deleted?pageNumber=1', { status: ALL })).json();
    expect(second).toMatchObject({ number: 1, totalPages: 2, totalElements: 55, size: 50 });
    expect(second.content.map((i: { moduleName: string }) => i.moduleName)).toEqual(names.slice(50));
    const small = (await admin.post('/api/module/deleted?pageNumber=2&pageSize=20', { status: ALL })).json();
    expect(small).toMatchObject({ number: 2, totalPages: 3, size: 20 });
    expect(small.content).toHaveLength(15);
    const past = (await admin.post('/api/module/deleted?pageNumber=9', { status: ALL })).json();
    expect(past).toMatchObject({ content: [], number: 9, totalPages: 2, totalElements: 55 });
    expect((await admin.post('/api/module/deleted?pageSize=501', { status: ALL })).statusCode).toBe(400);
    expect((await admin.post('/api/module/deleted?pageNumber=-1', { status: ALL })).statusCode).toBe(400);
  });

  it('filters by name case-insensitively, with %, _ and \\ taken literally, and by brand', async () => {
    for (const moduleName of ['AB_1', 'ABX1', 'ab%2', 'Q\\1']) await buildModule(db(), { moduleName });
    await buildModule(db(), { moduleName: 'abv', brandCode: 'VLT' });
    const admin = await as('admin');
    await admin.del(
      '/api/module',
      ['AB_1', 'ABX1', 'ab%2', 'Q\\1', 'abv'].map((moduleName) => ({ moduleName, monthId: 'M01_2027' })),
    );
    const names = async (filter: object) =>
      (await admin.post('/api/module/deleted', { status: ALL, ...filter })).json().content.map((i: { moduleName: string }) => i.moduleName);
    expect(await names({ moduleName: 'b_' })).toEqual(['AB_1']);
    expect(await names({ moduleName: 'B%' })).toEqual(['ab%2']);
    expect(await names({ moduleName: '\\' })).toEqual(['Q\\1']);
    expect(await names({ moduleName: 'Ab' })).toEqual(['ABX1', 'AB_1', 'ab%2', 'abv']); // code-point order
    expect(await names({ moduleName: 'ab', brand: ['VLT'] })).toEqual(['abv']);
    expect(await names({ moduleName: null, brand: [] })).toHaveLength(5);
  });

  it('lists only the items the caller may view', async () => {
    await buildModule(db(), { moduleName: 'AURMOD' });
    await buildModule(db(), { moduleName: 'VLTMOD', brandCode: 'VLT' });
    await buildModule(db(), { moduleName: 'NAMOD', zones: ['NA'] });
    await (await as('admin')).del(
      '/api/module',
      ['AURMOD', 'VLTMOD', 'NAMOD'].map((moduleName) => ({ moduleName, monthId: 'M01_2027' })),
    );
    const seen = async (user: DeletionUser) =>
      (await (await as(user)).post('/api/module/deleted', { status: ALL })).json().content.map((i: { moduleName: string }) => i.moduleName);
    expect(await seen('admin')).toEqual(['AURMOD', 'NAMOD', 'VLTMOD']);
    expect(await seen('viewer')).toEqual(['AURMOD']);
    expect(await seen('deleter')).toEqual(['AURMOD', 'VLTMOD']);
  });

  it('marks months where the item was created again after its deletion', async () => {
    await buildModuleInMonths(db(), { moduleName: 'MOD1' }, ['M01_2027', 'M02_2027', 'M10_2027']);
    const admin = await as('admin');
    await admin.del('/api/module', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);

    // Creating MOD1 again in M02_2027 (as the module creation does): the deleted row makes room for the new one.
    const createdAfterDelete = await db().transaction(async (tx) => {
      const flag = await prepareRecreation(tx, 'module', 'MOD1', 'M02_2027');
      await tx.insert(modules).values({
        moduleName: 'MOD1',
        monthId: 'M02_2027',
        moduleLabel: 'MOD1 again',
        macroFamily: 'PILOT',
        brandCode: 'AUR',
        collection: 'SUN',
        createdAfterDelete: flag,
      });
      return flag;
    });
    expect(createdAfterDelete).toBe(true);
    await db().transaction(async (tx) => expect(await prepareRecreation(tx, 'module', 'NEVER', 'M02_2027')).toBe(false));

    const item = (await admin.post('/api/module/deleted', { status: ALL })).json().content[0];
    expect(item.status).toBe('DELETION_PENDING');
    expect(item.openMonthList).toEqual([
      absent('M12_2026'),
      marked('M01_2027'),
      { monthId: 'M02_2027', status: 'ACTIVE', createdAfterDelete: true, uiVisible: true },
      marked('M10_2027'),
    ]);

    // Restore brings back the pending months; the created-again month stays as it is.
    expect((await admin.post('/api/module/restore', [{ moduleName: 'MOD1' }])).json()).toEqual({ restored: ['MOD1'], notRestored: [] });
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({ M01_2027: null, M02_2027: null, M10_2027: null });
    const [again] = await db().select().from(modules).where(eq(modules.monthId, 'M02_2027'));
    expect(again).toMatchObject({ moduleLabel: 'MOD1 again', createdAfterDelete: true });
    // Restored items stay listed (their request is kept, inactive) with their live months.
    const after = (await admin.post('/api/module/deleted', { status: ['ACTIVE'] })).json().content[0];
    expect(after).toMatchObject({ moduleName: 'MOD1', status: 'ACTIVE' });
    expect((await db().select().from(deletionRequests))[0]!.active).toBe(false);
  });
});

describe('POST /api/cluster/deleted', () => {
  it("lists deleted clusters with their first store's codes", async () => {
    const s1 = await buildStore(db(), 'IT');
    const s2 = await buildStore(db(), 'FR');
    const [first, second] = [s1, s2].sort((a, b) => a.storeJda.localeCompare(b.storeJda));
    await buildCluster(db(), { clusterId: 'CL1', storeJdas: [second!.storeJda, first!.storeJda] });
    await buildCluster(db(), { clusterId: 'CL1', monthId: 'M02_2027', storeJdas: [] });
    await buildCluster(db(), { clusterId: 'CL2', storeJdas: [] });
    await buildCluster(db(), { clusterId: 'CLUS', countries: ['US'], zones: ['NA'] });
    const admin = await as('admin');
    const del = await admin.del(
      '/api/cluster',
      ['CL1', 'CL2', 'CLUS'].map((clusterId) => ({ clusterId, monthId: 'M01_2027' })),
    );
    expect(del.statusCode).toBe(200);

    const res = await (await as('deleter')).post('/api/cluster/deleted?pageSize=10', { status: ['DELETION_PENDING'] });
    expect(res.json()).toEqual({
      content: [
        {
          clusterId: 'CL1',
          clusterLabel: 'CL1 label',
          storeJda: first!.storeJda,
          codiceStoreSap: first!.codiceStoreSap,
          brand: 'AUR',
          status: 'DELETION_PENDING',
          errorMessage: null,
          deleteFromMonthId: 'M01_2027',
          openMonthList: [absent('M12_2026'), marked('M01_2027'), marked('M02_2027'), absent('M10_2027')],
        },
        expect.objectContaining({ clusterId: 'CL2', storeJda: null, codiceStoreSap: null }),
      ],
      number: 0,
      totalPages: 1,
      totalElements: 2,
      size: 10,
    });
    const filtered = await admin.post('/api/cluster/deleted', { status: ALL, clusterId: 'cl2' });
    expect(filtered.json().content.map((c: { clusterId: string }) => c.clusterId)).toEqual(['CL2']);
  });
});
