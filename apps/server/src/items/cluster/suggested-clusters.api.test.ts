import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { SUGGESTION_TEXTS } from '@bo/shared/suggested-clusters';
import { buildClusterWorldApp, lockRow, type ClusterWorld, type ClusterWorldUser } from '../../../test/cluster-test-app.js';
import { buildStore } from '../../../test/builders.js';
import type { TestApp } from '../../../test/test-app.js';
import {
  auditLog,
  clusterCountries,
  clusterModules,
  clusters,
  clusterStores,
  months,
  suggestedClusterModules,
  suggestedClusters,
  suggestedClusterStores,
} from '../../db/schema.js';
import { approvedModuleNames } from './suggested-clusters.service.js';

let app: FastifyInstance;
let world: ClusterWorld;
let as: TestApp<ClusterWorldUser>['as'];
const db = () => app.database.db;

async function suggestion(spec: {
  assortmentId: string;
  originalAssortment?: string;
  monthId?: string | null;
  brandCode?: string | null;
  country?: string;
  status?: string;
  stores: { storeJda: string; starsCustomer: string }[];
  modules: { moduleName: string; foType: string; moduleNameSwitch?: string | null; added: boolean }[];
}) {
  await db()
    .insert(suggestedClusters)
    .values({
      assortmentId: spec.assortmentId,
      originalAssortment: spec.originalAssortment ?? 'NEWC',
      releaseId: 'R2027',
      monthId: spec.monthId === undefined ? 'M01_2027' : spec.monthId,
      brandCode: spec.brandCode === undefined ? 'AUR' : spec.brandCode,
      collection: 'SUN',
      country: spec.country ?? 'IT',
      userSuggest: 'buyer@example.com',
      dateSuggest: '2026-12-15',
      period: 'SS 2027',
      status: spec.status ?? 'PENDING',
      message: spec.status === 'REJECTED' ? 'Too many modules' : null,
    });
  if (spec.stores.length)
    await db()
      .insert(suggestedClusterStores)
      .values(spec.stores.map((s) => ({ assortmentId: spec.assortmentId, storeJda: s.storeJda, starsCustomer: s.starsCustomer, customerSegmentation: 'GOLD' })));
  if (spec.modules.length)
    await db()
      .insert(suggestedClusterModules)
      .values(spec.modules.map((m) => ({ assortmentId: spec.assortmentId, moduleName: m.moduleName, foType: m.foType, moduleNameSwitch: m.moduleNameSwitch ?? null, added: m.added })));
}

beforeEach(async () => {
  ({ app, as, world } = await buildClusterWorldApp());
  const { st1, st2, stUs } = world.stores;
  await suggestion({
    assortmentId: 'SUG1',
    stores: [
      { storeJda: st1.storeJda, starsCustomer: st1.starsCustomer },
      { storeJda: st2.storeJda, starsCustomer: st2.starsCustomer },
    ],
    modules: [
      { moduleName: 'A1', foType: 'NOT SWITCH', added: true },
      { moduleName: 'A2', foType: 'SWITCH', moduleNameSwitch: 'A3', added: true },
      { moduleName: 'W1', foType: 'OTHER', added: false },
      { moduleName: 'GONE', foType: 'NOT SWITCH', added: true },
    ],
  });
  await suggestion({ assortmentId: 'SUG2', originalAssortment: 'C3', status: 'REJECTED', stores: [{ storeJda: st1.storeJda, starsCustomer: st1.starsCustomer }], modules: [] });
  await suggestion({ assortmentId: 'SUGUS', country: 'US', stores: [{ storeJda: stUs.storeJda, starsCustomer: stUs.starsCustomer }], modules: [] });
});
afterEach(async () => {
  await app.close();
});

const post = async (user: ClusterWorldUser, url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: await as(user) });

async function clusterRow(clusterId: string, monthId = 'M01_2027') {
  const [row] = await db()
    .select()
    .from(clusters)
    .where(and(eq(clusters.clusterId, clusterId), eq(clusters.monthId, monthId)));
  return row;
}
async function compositionOf(pk: number) {
  const rows = await db().select().from(clusterModules).where(eq(clusterModules.clusterPk, pk));
  return Object.fromEntries(rows.map((r) => [r.moduleName, r.status]));
}
const statusOf = async (id: string) => (await db().select().from(suggestedClusters).where(eq(suggestedClusters.assortmentId, id)))[0]!;

describe('POST /api/cluster/suggestList', () => {
  it('lists the suggestions the caller may view, with unique lists and filter options', async () => {
    const res = await post('editor', '/api/cluster/suggestList', { country: [] });
    expect(res.statusCode).toBe(200);
    const { rows, filters } = res.json();
    // SUGUS is in the NA zone: the editor (EU) does not see it.
    expect(rows.map((r: { assortmentId: string }) => r.assortmentId).sort()).toEqual(['SUG1', 'SUG2']);
    const sug1 = rows.find((r: { assortmentId: string }) => r.assortmentId === 'SUG1');
    expect(sug1).toMatchObject({
      country: 'IT',
      status: 'PENDING',
      canDecide: true,
      customerSegmentation: ['GOLD'],
      dateSuggest: '2026-12-15',
    });
    expect(sug1.storeJda).toHaveLength(2);
    expect(sug1.modules.find((m: { moduleName: string }) => m.moduleName === 'A1')).toMatchObject({ moduleLabel: 'A1 label', macroFamily: 'PILOT', foType: 'NOT SWITCH' });
    expect(sug1.modules.find((m: { moduleName: string }) => m.moduleName === 'GONE')).toMatchObject({ moduleLabel: null });
    const sug2 = rows.find((r: { assortmentId: string }) => r.assortmentId === 'SUG2');
    expect(sug2).toMatchObject({ status: 'REJECTED', message: 'Too many modules', canDecide: false });
    expect(filters.status).toEqual([
      { value: 'PENDING', label: 'PENDING' },
      { value: 'REJECTED', label: 'REJECTED' },
    ]);
    expect(filters.dateSuggest).toEqual([{ value: '2026-12-15', label: '15/12/2026' }]);
    expect(filters.country).toEqual([{ value: 'IT', label: 'IT' }]);
  });

  it('filters by country; a viewer sees but may not decide', async () => {
    const admin = await post('admin', '/api/cluster/suggestList', { country: ['US'] });
    expect(admin.json().rows.map((r: { assortmentId: string }) => r.assortmentId)).toEqual(['SUGUS']);
    const viewer = await post('viewer', '/api/cluster/suggestList', {});
    expect(viewer.json().rows.every((r: { canDecide: boolean }) => !r.canDecide)).toBe(true);
  });
});

describe('POST /api/cluster/accept', () => {
  it('creates the cluster from the suggestion: stores, countries, ADDED modules (SWITCH → moduleNameSwitch), who approved', async () => {
    const res = await post('editor', '/api/cluster/accept', { assortmentId: 'SUG1', country: 'IT' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'APPROVED', message: SUGGESTION_TEXTS.approved, clusterId: 'NEWC', monthId: 'M01_2027', skippedModules: ['GONE'] });
    const row = (await clusterRow('NEWC'))!;
    expect(row).toMatchObject({ brandCode: 'AUR', collection: 'SUN', status: 'WIP', approvedFrom: 'SUG1', approvedBy: 'editor', releaseId: 'R2027' });
    expect(await compositionOf(row.id)).toEqual({ A1: 'ADDED', A3: 'ADDED' });
    expect((await db().select().from(clusterStores).where(eq(clusterStores.clusterPk, row.id))).length).toBe(2);
    expect((await db().select().from(clusterCountries).where(eq(clusterCountries.clusterPk, row.id))).map((c) => c.countryCode)).toEqual(['IT']);
    const s = await statusOf('SUG1');
    expect(s).toMatchObject({ status: 'APPROVED', decidedBy: 'editor' });
    expect(s.decidedAt).toBeInstanceOf(Date);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'approve-suggestion'));
    expect(audits).toHaveLength(1);
    // Approving twice: no longer pending.
    const again = await post('editor', '/api/cluster/accept', { assortmentId: 'SUG1' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ error: 'notPending', message: SUGGESTION_TEXTS.notPending });
  });

  it('updates an existing cluster: stores replaced, modules left out go to the bin, SUBMITTED reopens as WIP', async () => {
    const st3 = await buildStore(db(), 'FR');
    await db().update(clusters).set({ status: 'SUBMITTED' }).where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M01_2027')));
    await suggestion({ assortmentId: 'SUGC1', originalAssortment: 'C1', stores: [{ storeJda: st3.storeJda, starsCustomer: st3.starsCustomer }], modules: [{ moduleName: 'W1', foType: 'NOT SWITCH', added: true }] });
    const res = await post('admin', '/api/cluster/accept', { assortmentId: 'SUGC1' });
    expect(res.statusCode).toBe(200);
    const row = (await clusterRow('C1'))!;
    expect(row).toMatchObject({ status: 'WIP', approvedFrom: 'SUGC1', approvedBy: 'admin', clusterLabel: 'C1 label' });
    expect(await compositionOf(row.id)).toEqual({ W1: 'ADDED', A1: 'REMOVED', A2: 'REMOVED', A3: 'REMOVED' });
    expect((await db().select().from(clusterStores).where(eq(clusterStores.clusterPk, row.id))).map((s) => s.storeJda)).toEqual([st3.storeJda]);
    expect((await db().select().from(clusterCountries).where(eq(clusterCountries.clusterPk, row.id))).map((c) => c.countryCode)).toEqual(['FR']);
  });

  it('falls back to the first open month of the release when the suggestion month is closed', async () => {
    await db().update(months).set({ open: false }).where(eq(months.monthId, 'M01_2027'));
    const res = await post('admin', '/api/cluster/accept', { assortmentId: 'SUG1' });
    expect(res.json()).toMatchObject({ monthId: 'M02_2027', skippedModules: ['A3', 'GONE'] });
    expect(await clusterRow('NEWC', 'M02_2027')).toBeDefined();
  });

  it('refuses: 422 without an open month, 422 locked by another user, 422 other brand, 403 without edit, 404 unknown', async () => {
    expect((await post('editor', '/api/cluster/accept', { assortmentId: 'NOPE' })).statusCode).toBe(404);
    const viewer = await post('viewer', '/api/cluster/accept', { assortmentId: 'SUG1' });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().message).toBe(SUGGESTION_TEXTS.notAllowed);
    expect((await post('pubonly', '/api/cluster/accept', { assortmentId: 'SUG1' })).statusCode).toBe(403);
    // The NA suggestion is not even visible to the EU editor.
    expect((await post('editor', '/api/cluster/accept', { assortmentId: 'SUGUS' })).statusCode).toBe(404);

    await suggestion({ assortmentId: 'SUGCV', originalAssortment: 'CV', stores: [], modules: [] });
    const other = await post('admin', '/api/cluster/accept', { assortmentId: 'SUGCV' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('otherBrand');

    await suggestion({ assortmentId: 'SUGC2', originalAssortment: 'C2', stores: [], modules: [] });
    await lockRow(db(), 'C2', 'M01_2027', 'editor2');
    const locked = await post('editor', '/api/cluster/accept', { assortmentId: 'SUGC2' });
    expect(locked.statusCode).toBe(422);
    expect(locked.json()).toMatchObject({ error: 'clusterLocked', message: SUGGESTION_TEXTS.locked('editor2') });

    await db().update(months).set({ open: false });
    const closed = await post('admin', '/api/cluster/accept', { assortmentId: 'SUG1' });
    expect(closed.statusCode).toBe(422);
    expect(closed.json()).toMatchObject({ error: 'monthClosed', message: SUGGESTION_TEXTS.noMonth });
    expect((await statusOf('SUG1')).status).toBe('PENDING');
  });

  it('SWITCH rows bring moduleNameSwitch when set, else their own module; only ADDED rows count', () => {
    expect(
      approvedModuleNames([
        { foType: 'SWITCH', moduleName: 'A', moduleNameSwitch: 'B', added: true },
        { foType: 'SWITCH', moduleName: 'C', moduleNameSwitch: null, added: true },
        { foType: 'NOT SWITCH', moduleName: 'D', moduleNameSwitch: 'X', added: true },
        { foType: 'NOT SWITCH', moduleName: 'E', moduleNameSwitch: null, added: false },
      ]),
    ).toEqual(['B', 'C', 'D']);
  });
});

describe('POST /api/cluster/reject', () => {
  it('rejects a PENDING suggestion with the optional reason, audited', async () => {
    const res = await post('editor', '/api/cluster/reject', { assortmentId: 'SUG1', message: '  Wrong stores  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'REJECTED', message: SUGGESTION_TEXTS.rejected });
    expect(await statusOf('SUG1')).toMatchObject({ status: 'REJECTED', message: 'Wrong stores', decidedBy: 'editor' });
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'reject-suggestion'))).toHaveLength(1);
    expect(await clusterRow('NEWC')).toBeUndefined();
  });

  it('the reason is optional; only PENDING rows; needs an edit grant', async () => {
    expect((await post('viewer', '/api/cluster/reject', { assortmentId: 'SUG1' })).statusCode).toBe(403);
    const res = await post('admin', '/api/cluster/reject', { assortmentId: 'SUG1' });
    expect(res.statusCode).toBe(200);
    expect((await statusOf('SUG1')).message).toBeNull();
    expect((await post('admin', '/api/cluster/reject', { assortmentId: 'SUG2' })).statusCode).toBe(422);
    expect((await post('admin', '/api/cluster/reject', { assortmentId: 'SUG1', message: 'x'.repeat(501) })).statusCode).toBe(400);
  });
});
