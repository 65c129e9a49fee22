import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BELL_USERS, useAreaApp } from '../../../test/area-test-app.js';
import { buildCluster, buildModule, buildSku } from '../../../test/builders.js';
import { clusters, modules } from '../../db/schema.js';

const USERS = BELL_USERS;
type User = keyof typeof USERS;

const { start, app, db, as } = useAreaApp(USERS);
beforeEach(() => start());

const get = async (url: string, user: User) => {
  const res = await app().inject({ method: 'GET', url, headers: await as(user) });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('GET /api/module/countPendingAreaAlerts', () => {
  it('counts WIP modules and clusters of open months (with or without planning-system warnings) that the caller may edit', async () => {
    const warn = async (row: { id: number }, table: 'modules' | 'clusters', status = 'WIP', rpasErrors: string | null = 'Price missing;Door count below minimum') => {
      if (table === 'modules') await db().update(modules).set({ rpasErrors, status }).where(eq(modules.id, row.id));
      else await db().update(clusters).set({ rpasErrors, status }).where(eq(clusters.id, row.id));
    };
    await warn(await buildModule(db(), { moduleName: 'COUNTED' }), 'modules');
    await warn(await buildModule(db(), { moduleName: 'SUBMITTED' }), 'modules', 'SUBMITTED');
    await warn(await buildModule(db(), { moduleName: 'CLOSED', monthId: 'M12_2026' }), 'modules');
    await warn(await buildModule(db(), { moduleName: 'NO_WARNING' }), 'modules', 'WIP', null);
    await warn(await buildModule(db(), { moduleName: 'EMPTY_WARNING' }), 'modules', 'WIP', '');
    await warn(await buildModule(db(), { moduleName: 'OTHER_BRAND', brandCode: 'VLT' }), 'modules');
    const deleted = await buildModule(db(), { moduleName: 'DELETED' });
    await warn(deleted, 'modules');
    await db().update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.id, deleted.id));
    await warn(await buildCluster(db(), { clusterId: 'CL' }), 'clusters');
    await warn(await buildCluster(db(), { clusterId: 'CL_US', countries: ['US'], zones: ['NA'] }), 'clusters');

    expect(await get('/api/module/countPendingAreaAlerts', 'admin')).toBe(6);
    expect(await get('/api/module/countPendingAreaAlerts', 'editor')).toBe(4);
    expect(await get('/api/module/countPendingAreaAlerts', 'vlt')).toBe(1);
    expect(await get('/api/module/countPendingAreaAlerts', 'viewer')).toBe(0);
  });
});

describe('GET /api/sku/badgeCounts', () => {
  it('counts discontinued and deleted SKUs still in live modules of open months that the caller may view', async () => {
    const disco = await buildSku(db(), { flagDisco: true });
    const disco2 = await buildSku(db(), { flagDisco: true });
    const binned = await buildSku(db(), { flagDisco: true });
    const closedOnly = await buildSku(db(), { flagDisco: true });
    const removed = await buildSku(db(), { deleted: true });
    const plain = await buildSku(db());
    const vltDisco = await buildSku(db(), { flagDisco: true, brandCode: 'VLT' });
    await buildModule(db(), { moduleName: 'A', skus: [{ upc: disco.upc }, { upc: plain.upc }, { upc: removed.upc }, { upc: binned.upc, status: 'REMOVED' }] });
    await buildModule(db(), { moduleName: 'A', monthId: 'M02_2027', skus: [{ upc: disco.upc }, { upc: disco2.upc, mustHave: false }] });
    await buildModule(db(), { moduleName: 'OLD', monthId: 'M12_2026', skus: [{ upc: closedOnly.upc }] });
    await buildModule(db(), { moduleName: 'V', brandCode: 'VLT', skus: [{ upc: vltDisco.upc }] });
    const gone = await buildModule(db(), { moduleName: 'GONE', skus: [{ upc: closedOnly.upc }] });
    await db().update(modules).set({ deletionStatus: 'DELETED' }).where(eq(modules.id, gone.id));

    expect(await get('/api/sku/badgeCounts', 'admin')).toEqual({ numDisco: 3, numRemoved: 1 });
    expect(await get('/api/sku/badgeCounts', 'editor')).toEqual({ numDisco: 2, numRemoved: 1 });
    expect(await get('/api/sku/badgeCounts', 'vlt')).toEqual({ numDisco: 1, numRemoved: 0 });
  });
});
