import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { buildCluster, buildModule, buildStore } from '../../../test/builders.js';
import {
  buildClusterInMonths,
  buildDeletionApp,
  buildModuleInMonths,
  clusterStatuses,
  moduleStatuses,
  type DeletionUser,
} from '../../../test/deletion-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { auditLog, deletionRequests, locks, modules } from '../../db/schema.js';
import { runDeletionSteps } from './deletion.steps.js';

let app: FastifyInstance;
let as: TestApp<DeletionUser>['as'];
const db = () => app.database.db;

const ALL_OPEN = ['M01_2027', 'M02_2027', 'M10_2027'];

beforeEach(async () => {
  ({ app, as } = await buildDeletionApp());
  // MOD1: AUR/EU in the closed month M12_2026 and in every open month.
  await buildModuleInMonths(db(), { moduleName: 'MOD1' }, ['M12_2026', ...ALL_OPEN]);
  await buildModuleInMonths(db(), { moduleName: 'VLTMOD', brandCode: 'VLT' }, ['M01_2027', 'M02_2027']);
  await buildModule(db(), { moduleName: 'NAMOD', zones: ['NA'] });
  await buildClusterInMonths(db(), { clusterId: 'CL1' }, ['M01_2027', 'M02_2027']);
  await buildCluster(db(), { clusterId: 'CLUS', countries: ['US'], zones: ['NA'] });
});
afterEach(async () => {
  await app.close();
});

async function call(user: DeletionUser, method: 'DELETE' | 'POST', url: string, payload?: unknown) {
  const headers = await as(user);
  return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}
const deleteModules = (user: DeletionUser, items: { moduleName: string; monthId: string }[]) => call(user, 'DELETE', '/api/module', items);
const deleteClusters = (user: DeletionUser, items: { clusterId: string; monthId: string }[]) => call(user, 'DELETE', '/api/cluster', items);
const requests = () => db().select().from(deletionRequests).orderBy(deletionRequests.id);

describe('DELETE /api/module and POST /api/module/deleteFromMonth', () => {
  it('marks the start month and every later month DELETION_PENDING, leaves earlier months live and records the request', async () => {
    const res = await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: [{ key: 'MOD1', monthIdFrom: 'M02_2027', months: ['M02_2027', 'M10_2027'] }], notAuthorized: [], errors: [] });
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({
      M12_2026: null,
      M01_2027: null,
      M02_2027: 'DELETION_PENDING',
      M10_2027: 'DELETION_PENDING',
    });
    const [request, ...more] = await requests();
    expect(more).toEqual([]);
    expect(request).toMatchObject({ itemType: 'module', itemKey: 'MOD1', deleteFromMonthId: 'M02_2027', requestedBy: 'deleter', active: true, errorMessage: null });
  });

  it('POST /api/module/deleteFromMonth has the same effect', async () => {
    const res = await call('deleter', 'POST', '/api/module/deleteFromMonth', [{ moduleName: 'MOD1', monthIdFrom: 'M01_2027' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toEqual([{ key: 'MOD1', monthIdFrom: 'M01_2027', months: ALL_OPEN }]);
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({
      M12_2026: null,
      M01_2027: 'DELETION_PENDING',
      M02_2027: 'DELETION_PENDING',
      M10_2027: 'DELETION_PENDING',
    });
    expect((await requests()).map((r) => r.deleteFromMonthId)).toEqual(['M01_2027']);
  });

  it('deleted modules answer nothing in a plain select of live modules', async () => {
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    const live = await db()
      .select({ monthId: modules.monthId })
      .from(modules)
      .where(and(eq(modules.moduleName, 'MOD1'), isNull(modules.deletionStatus)));
    expect(live.map((r) => r.monthId)).toEqual(['M12_2026']);
  });

  it('records the deletion in the audit log', async () => {
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    const rows = await db().select().from(auditLog).where(eq(auditLog.action, 'delete'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: 'deleter', itemType: 'module', itemKey: 'MOD1', monthId: 'M02_2027' });
    expect(rows[0]!.summary).toMatchObject({ months: ['M02_2027', 'M10_2027'] });
  });

  it('refuses a start month that is not available for the item with 400, writing nothing', async () => {
    const cases = [
      { moduleName: 'MOD1', monthId: 'M12_2026' }, // closed month
      { moduleName: 'MOD1', monthId: 'M05_2027' }, // not a month of the item
      { moduleName: 'GHOST', monthId: 'M01_2027' }, // no such module
    ];
    for (const item of cases) {
      const res = await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M01_2027' }, item]);
      expect(res.statusCode, JSON.stringify(item)).toBe(400);
      expect(res.json().error).toBe('monthNotAvailable');
    }
    const closed = await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M12_2026' }]);
    expect(closed.json().message).toBe(
      'The month M12_2026 is not available for deleting the module MOD1; available months: M01_2027, M02_2027, M10_2027.',
    );
    const ghost = await deleteModules('deleter', [{ moduleName: 'GHOST', monthId: 'M01_2027' }]);
    expect(ghost.json().message).toBe('The module GHOST cannot be deleted: it is not live in any open month.');
    expect(await requests()).toEqual([]);
    expect(Object.values(await moduleStatuses(db(), 'MOD1')).every((s) => s === null)).toBe(true);
  });

  it('refuses a month already deleted (it is no longer live)', async () => {
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    const res = await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M10_2027' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The month M10_2027 is not available for deleting the module MOD1; available months: M01_2027.');
  });

  it('answers the spec texts for an empty or malformed payload', async () => {
    const moduleText = { error: 'invalidDeletionData', message: 'Invalid data provided for module deletion.' };
    const clusterText = { error: 'invalidDeletionData', message: 'Invalid data provided for cluster deletion.' };
    for (const [method, url, text] of [
      ['DELETE', '/api/module', moduleText],
      ['POST', '/api/module/deleteFromMonth', moduleText],
      ['DELETE', '/api/cluster', clusterText],
      ['POST', '/api/cluster/deleteFromMonth', clusterText],
    ] as const) {
      const empty = await call('deleter', method, url, []);
      expect(empty.statusCode, url).toBe(400);
      expect(empty.json()).toEqual(text);
      const malformed = await call('deleter', method, url, [{ monthId: 'nope' }]);
      expect(malformed.statusCode, url).toBe(400);
      expect(malformed.json()).toMatchObject(text);
      expect(malformed.json().fields.length).toBeGreaterThan(0);
    }
  });

  it('refuses an editor without the delete rule with 403 and the spec text', async () => {
    const res = await deleteModules('editor', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'deleteNotAuthorized', message: 'No modules selected or you dont have the authorization to delete them' });
    expect(Object.values(await moduleStatuses(db(), 'MOD1')).every((s) => s === null)).toBe(true);
    expect(await requests()).toEqual([]);
  });

  it('lets a submitter with the delete rule delete', async () => {
    const res = await deleteModules('submitter', [{ moduleName: 'MOD1', monthId: 'M10_2027' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toEqual([{ key: 'MOD1', monthIdFrom: 'M10_2027', months: ['M10_2027'] }]);
  });

  it('skips items of another brand or zone into notAuthorized and deletes the rest', async () => {
    const res = await deleteModules('deleter', [
      { moduleName: 'MOD1', monthId: 'M01_2027' },
      { moduleName: 'VLTMOD', monthId: 'M01_2027' },
      { moduleName: 'NAMOD', monthId: 'M01_2027' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      deleted: [{ key: 'MOD1', monthIdFrom: 'M01_2027', months: ALL_OPEN }],
      notAuthorized: ['VLTMOD', 'NAMOD'],
      errors: [],
    });
    expect(await moduleStatuses(db(), 'VLTMOD')).toEqual({ M01_2027: null, M02_2027: null });
    expect((await requests()).map((r) => r.itemKey)).toEqual(['MOD1']);
  });

  it('lets an admin delete anything', async () => {
    const res = await deleteModules('admin', [
      { moduleName: 'VLTMOD', monthId: 'M02_2027' },
      { moduleName: 'NAMOD', monthId: 'M01_2027' },
    ]);
    expect(res.json().deleted.map((d: { key: string }) => d.key)).toEqual(['VLTMOD', 'NAMOD']);
  });

  it('skips an item locked by another user with an error entry; lapsed and own locks do not block', async () => {
    await db().insert(locks).values({ itemType: 'module', itemKey: 'MOD1', monthId: 'M02_2027', owner: 'other' });
    const res = await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      deleted: [],
      notAuthorized: [],
      errors: [{ key: 'MOD1', monthIdFrom: 'M02_2027', message: 'other is editing the module MOD1 (M02_2027)' }],
    });
    expect(await requests()).toEqual([]);
    expect((await moduleStatuses(db(), 'MOD1')).M02_2027).toBeNull();

    // A lock nobody renewed for LOCK_TTL_MINUTES has lapsed; the caller's own lock (any case) is no obstacle.
    await db()
      .update(locks)
      .set({ renewedAt: sql`now() - interval '1 day'` })
      .where(eq(locks.itemKey, 'MOD1'));
    await db().insert(locks).values({ itemType: 'module', itemKey: 'MOD1', monthId: 'M10_2027', owner: 'DELETER' });
    const again = await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    expect(again.json().deleted).toEqual([{ key: 'MOD1', monthIdFrom: 'M02_2027', months: ['M02_2027', 'M10_2027'] }]);
  });

  it('a lock in a later month of the deletion also blocks the item', async () => {
    await db().insert(locks).values({ itemType: 'module', itemKey: 'MOD1', monthId: 'M10_2027', owner: 'other' });
    const res = await deleteModules('deleter', [
      { moduleName: 'MOD1', monthId: 'M01_2027' },
      { moduleName: 'VLTMOD', monthId: 'M01_2027' },
    ]);
    expect(res.json()).toEqual({
      deleted: [],
      notAuthorized: ['VLTMOD'],
      errors: [{ key: 'MOD1', monthIdFrom: 'M01_2027', message: 'other is editing the module MOD1 (M10_2027)' }],
    });
  });
});

describe('DELETE /api/cluster and POST /api/cluster/deleteFromMonth', () => {
  it('marks the cluster DELETION_PENDING from the start month on', async () => {
    const res = await deleteClusters('deleter', [{ clusterId: 'CL1', monthId: 'M02_2027' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: [{ key: 'CL1', monthIdFrom: 'M02_2027', months: ['M02_2027'] }], notAuthorized: [], errors: [] });
    expect(await clusterStatuses(db(), 'CL1')).toEqual({ M01_2027: null, M02_2027: 'DELETION_PENDING' });
    expect((await requests())[0]).toMatchObject({ itemType: 'cluster', itemKey: 'CL1', deleteFromMonthId: 'M02_2027' });
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'delete'));
    expect(audits.map((a) => [a.itemType, a.itemKey])).toEqual([['cluster', 'CL1']]);
  });

  it('POST /api/cluster/deleteFromMonth has the same effect', async () => {
    const res = await call('submitter', 'POST', '/api/cluster/deleteFromMonth', [{ clusterId: 'CL1', monthIdFrom: 'M01_2027' }]);
    expect(res.json().deleted).toEqual([{ key: 'CL1', monthIdFrom: 'M01_2027', months: ['M01_2027', 'M02_2027'] }]);
  });

  it("checks the zones of the cluster's countries", async () => {
    const mixed = await deleteClusters('deleter', [
      { clusterId: 'CL1', monthId: 'M01_2027' },
      { clusterId: 'CLUS', monthId: 'M01_2027' },
    ]);
    expect(mixed.json().notAuthorized).toEqual(['CLUS']);
    const alone = await deleteClusters('deleter', [{ clusterId: 'CLUS', monthId: 'M01_2027' }]);
    expect(alone.statusCode).toBe(403);
    expect(alone.json()).toEqual({ error: 'deleteNotAuthorized', message: "You don't have authorization to delete the selected cluster(s)." });
  });

  it('refuses an editor without the delete rule, and an unavailable month', async () => {
    const res = await deleteClusters('editor', [{ clusterId: 'CL1', monthId: 'M01_2027' }]);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("You don't have authorization to delete the selected cluster(s).");
    const bad = await deleteClusters('deleter', [{ clusterId: 'CL1', monthId: 'M10_2027' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The month M10_2027 is not available for deleting the cluster CL1; available months: M01_2027, M02_2027.');
  });

  it('skips a cluster locked by another user', async () => {
    await db().insert(locks).values({ itemType: 'cluster', itemKey: 'CL1', monthId: 'M01_2027', owner: 'other' });
    const res = await deleteClusters('deleter', [{ clusterId: 'CL1', monthId: 'M01_2027' }]);
    expect(res.json().errors).toEqual([{ key: 'CL1', monthIdFrom: 'M01_2027', message: 'other is editing the cluster CL1 (M01_2027)' }]);
    expect(await clusterStatuses(db(), 'CL1')).toEqual({ M01_2027: null, M02_2027: null });
  });
});

describe('restore', () => {
  const restore = (user: DeletionUser, url: string, payload: unknown) => call(user, 'POST', url, payload);

  it('puts DELETION_PENDING modules back, deactivates the request and audits it', async () => {
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    const res = await restore('deleter', '/api/module/restore', [{ moduleName: 'MOD1' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ restored: ['MOD1'], notRestored: [] });
    expect(Object.values(await moduleStatuses(db(), 'MOD1')).every((s) => s === null)).toBe(true);
    expect((await requests()).map((r) => r.active)).toEqual([false]);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'restore'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ username: 'deleter', itemType: 'module', itemKey: 'MOD1', summary: { months: ALL_OPEN } });
  });

  it('restores clusters, and through the generic call by viewType', async () => {
    await deleteClusters('deleter', [{ clusterId: 'CL1', monthId: 'M01_2027' }]);
    const res = await restore('deleter', '/api/cluster/restore', [{ clusterId: 'CL1' }]);
    expect(res.json()).toEqual({ restored: ['CL1'], notRestored: [] });
    expect(await clusterStatuses(db(), 'CL1')).toEqual({ M01_2027: null, M02_2027: null });

    await deleteClusters('deleter', [{ clusterId: 'CL1', monthId: 'M02_2027' }]);
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M02_2027' }]);
    const generic = await restore('deleter', '/api/deletion/restore?viewType=cluster', [{ clusterId: 'CL1' }, { moduleName: 'MOD1' }]);
    expect(generic.json()).toEqual({ restored: ['CL1'], notRestored: [] });
    expect((await moduleStatuses(db(), 'MOD1')).M02_2027).toBe('DELETION_PENDING');
    const modulesToo = await restore('deleter', '/api/deletion/restore?viewType=module', [{ moduleName: 'MOD1', moduleLabel: 'ignored' }]);
    expect(modulesToo.json()).toEqual({ restored: ['MOD1'], notRestored: [] });
    expect((await moduleStatuses(db(), 'MOD1')).M02_2027).toBeNull();
  });

  it('restores only DELETION_PENDING rows and reports the rest', async () => {
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M10_2027' }]);
    await runDeletionSteps(db(), { graceMs: 0 });
    const done = await restore('deleter', '/api/module/restore', [{ moduleName: 'MOD1' }]);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      restored: [],
      notRestored: [{ key: 'MOD1', reason: 'The module MOD1 is not pending deletion (DELETED): only DELETION_PENDING items can be restored.' }],
    });
    expect((await moduleStatuses(db(), 'MOD1')).M10_2027).toBe('DELETED');

    // Deleted again from an earlier month: only the pending months come back; the DELETED month stays.
    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    const partly = await restore('deleter', '/api/module/restore', [{ moduleName: 'MOD1' }, { moduleName: 'NEVER' }]);
    expect(partly.json()).toEqual({
      restored: ['MOD1'],
      notRestored: [{ key: 'NEVER', reason: 'The module NEVER has no deletion to restore.' }],
    });
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({ M12_2026: null, M01_2027: null, M02_2027: null, M10_2027: 'DELETED' });
    expect((await requests()).every((r) => !r.active)).toBe(true);
  });

  it('answers the three refusal texts', async () => {
    const noIds = { error: 'noItemIds', message: 'No item IDs provided for restoration.' };
    for (const url of ['/api/module/restore', '/api/cluster/restore', '/api/deletion/restore?viewType=module', '/api/deletion/restore?viewType=cluster']) {
      const res = await restore('deleter', url, []);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual(noIds);
    }
    const noKeys = await restore('deleter', '/api/deletion/restore?viewType=cluster', [{ moduleName: 'MOD1' }]);
    expect(noKeys.json()).toEqual(noIds);

    for (const url of ['/api/deletion/restore?viewType=sku', '/api/deletion/restore']) {
      const res = await restore('deleter', url, [{ moduleName: 'MOD1' }]);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ error: 'invalidViewType', message: 'Invalid viewType provided for restoring items' });
    }

    await deleteModules('deleter', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    await deleteClusters('deleter', [{ clusterId: 'CL1', monthId: 'M01_2027' }]);
    const forbiddenModule = await restore('editor', '/api/module/restore', [{ moduleName: 'MOD1' }]);
    expect(forbiddenModule.statusCode).toBe(403);
    expect(forbiddenModule.json()).toEqual({ error: 'restoreNotAuthorized', message: "You don't have authorization to restore the selected module(s)." });
    const forbiddenCluster = await restore('viewer', '/api/deletion/restore?viewType=cluster', [{ clusterId: 'CL1' }]);
    expect(forbiddenCluster.statusCode).toBe(403);
    expect(forbiddenCluster.json().message).toBe("You don't have authorization to restore the selected cluster(s).");
    expect((await moduleStatuses(db(), 'MOD1')).M01_2027).toBe('DELETION_PENDING');
  });

  it('restores what the caller may delete and reports the rest', async () => {
    await deleteModules('admin', [
      { moduleName: 'MOD1', monthId: 'M01_2027' },
      { moduleName: 'VLTMOD', monthId: 'M01_2027' },
    ]);
    const res = await restore('deleter', '/api/module/restore', [{ moduleName: 'VLTMOD' }, { moduleName: 'MOD1' }]);
    expect(res.json()).toEqual({
      restored: ['MOD1'],
      notRestored: [{ key: 'VLTMOD', reason: "You don't have authorization to restore the module VLTMOD." }],
    });
    expect(await moduleStatuses(db(), 'VLTMOD')).toEqual({ M01_2027: 'DELETION_PENDING', M02_2027: 'DELETION_PENDING' });
  });

  it('lets a submitter with the delete rule restore a cluster', async () => {
    const store = await buildStore(db(), 'FR');
    await buildCluster(db(), { clusterId: 'CLFR', countries: ['FR'], storeJdas: [store.storeJda] });
    await deleteClusters('submitter', [{ clusterId: 'CLFR', monthId: 'M01_2027' }]);
    const res = await restore('submitter', '/api/cluster/restore', [{ clusterId: 'CLFR' }]);
    expect(res.json()).toEqual({ restored: ['CLFR'], notRestored: [] });
  });
});

describe('the API description', () => {
  it('lists the deletion calls', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    expect(Object.keys(paths['/api/module']!)).toContain('delete');
    expect(Object.keys(paths['/api/cluster']!)).toContain('delete');
    for (const path of [
      '/api/module/deleteFromMonth',
      '/api/cluster/deleteFromMonth',
      '/api/module/deleted',
      '/api/cluster/deleted',
      '/api/module/restore',
      '/api/cluster/restore',
      '/api/deletion/restore',
    ]) {
      expect(Object.keys(paths[path] ?? {}), path).toContain('post');
    }
  });
});
