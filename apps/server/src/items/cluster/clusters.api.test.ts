import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { buildClusterWorldApp, lockRow, type ClusterWorld, type ClusterWorldUser } from '../../../test/cluster-test-app.js';
import type { TestApp } from '../../../test/test-app.js';
import { registerOpenApi } from '../../plugins/openapi.js';
import { clusterLifecycleRoutes } from './clusters.routes.js';
import { auditLog, clusterLias, clusterModules, clusters, locks, months, releases } from '../../db/schema.js';

let app: FastifyInstance;
let world: ClusterWorld;
let as: TestApp<ClusterWorldUser>['as'];

beforeEach(async () => {
  ({ app, as, world } = await buildClusterWorldApp());
});
afterEach(async () => {
  await app.close();
});

const post = async (user: ClusterWorldUser, url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: await as(user) });
const lock = (user: ClusterWorldUser, keys: { clusterId: string; monthId: string }[]) => post(user, '/api/cluster/lock', keys);
const C1 = { clusterId: 'C1', monthId: 'M01_2027' };
const db = () => app.database.db;

async function clusterRow(clusterId: string, monthId = 'M01_2027') {
  const [row] = await db()
    .select()
    .from(clusters)
    .where(and(eq(clusters.clusterId, clusterId), eq(clusters.monthId, monthId)));
  return row!;
}

async function moduleRowsOf(clusterId: string, monthId = 'M01_2027') {
  const row = await clusterRow(clusterId, monthId);
  const rows = await db().select().from(clusterModules).where(eq(clusterModules.clusterPk, row.id));
  return Object.fromEntries(rows.map((r) => [r.moduleName, r.status]));
}

/** The body the editor sends back: the cluster as it came, with some changes. */
async function detailsOf(user: ClusterWorldUser, key = C1) {
  const res = await post(user, '/api/cluster/clusterDetails', [key]);
  return res.json()[0];
}

describe('POST /api/cluster/clusterDetails', () => {
  it('answers every field of the cluster, its modules, stores, LIAs and counts', async () => {
    await lockRow(db(), 'C1', 'M01_2027', 'editor2');
    const res = await post('editor', '/api/cluster/clusterDetails', [C1]);
    expect(res.statusCode).toBe(200);
    const [c] = res.json();
    expect(c).toMatchObject({
      clusterId: 'C1',
      clusterLabel: 'C1 label',
      clusterDescription: 'First',
      monthId: 'M01_2027',
      brandCode: 'AUR',
      collection: 'SUN',
      country: ['IT'],
      status: 'WIP',
      locked: true,
      userLock: 'editor2',
      legoMonth: true,
      starZones: ['EU'],
      door: 2,
      totalSku: 2,
      months: ['M01_2027', 'M02_2027', 'M10_2027'],
      releaseClosed: false,
      inOpenMonth: true,
      publicationDate: null,
      rpasErrors: null,
      classifications: [{ classificationId: world.vip.classificationId, classificationLabel: 'VIP' }],
    });
    expect(c.lias).toEqual([
      { liaCode: 'LIA01', planningChannelId: 'RETAIL', isChecked: true },
      { liaCode: 'LIA02', planningChannelId: 'RETAIL', isChecked: false },
    ]);
    expect(c.stores).toHaveLength(2);
    expect(Object.keys(c.stores[0]).sort()).toEqual(['codiceStoreSap', 'customerSegmentation', 'name', 'starsCustomer', 'storeJda']);
    expect(c.modules.map((m: { moduleName: string; clusterCompositionStatus: string }) => [m.moduleName, m.clusterCompositionStatus])).toEqual([
      ['A1', 'ADDED'],
      ['A3', 'REMOVED'],
      ['A2', 'ADDED'],
    ]);
    expect(c.modules[0]).toEqual({
      moduleName: 'A1',
      moduleLabel: 'A1 label',
      macroFamily: 'PILOT',
      brand: 'AUR',
      monthId: 'M01_2027',
      clusterId: 'C1',
      clusterCompositionStatus: 'ADDED',
      status: 'SUBMITTED',
      length: 2,
      elLength: 0,
      productDtoList: [],
    });
  });

  it('leaves out unknown, deleted and not viewable clusters, in request order', async () => {
    await db().update(clusters).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(clusters.clusterId, 'C3'));
    const keys = ['C2', 'NOPE', 'C3', 'CV', 'C1'].map((clusterId) => ({ clusterId, monthId: 'M01_2027' }));
    const res = await post('editor', '/api/cluster/clusterDetails', keys);
    expect(res.json().map((c: { clusterId: string }) => c.clusterId)).toEqual(['C2', 'C1']);
    const asViewer = await post('viewer', '/api/cluster/clusterDetails', keys);
    expect(asViewer.json().map((c: { clusterId: string }) => c.clusterId)).toEqual(['C2', 'CV', 'C1']);
  });

  it('leaves modules that are gone out of the cluster and of its counts', async () => {
    await db().insert(clusterModules).values({ clusterPk: world.c1.id, moduleName: 'D1', status: 'ADDED' });
    const c = await detailsOf('editor');
    expect(c.modules.map((m: { moduleName: string }) => m.moduleName)).not.toContain('D1');
  });

  it('refuses a malformed key with 400', async () => {
    const res = await post('editor', '/api/cluster/clusterDetails', [{ clusterId: 'C1', monthId: '2027-01' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('badRequest');
  });
});

describe('POST /api/cluster/lock', () => {
  it('gives the lock to the first user; the second gets acquired:false naming the first', async () => {
    const first = await lock('editor', [C1]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual([{ ...C1, locked: true, userLock: 'editor', acquired: true }]);
    const second = await lock('editor2', [C1]);
    expect(second.json()).toEqual([{ ...C1, locked: true, userLock: 'editor', acquired: false }]);
    // Calling lock again renews the caller's own lock.
    expect((await lock('editor', [C1])).json()[0].acquired).toBe(true);
  });

  it('lets exactly one of two concurrent callers win', async () => {
    // Both logged in first, so that the two locks race each other and not the logins.
    await as('editor');
    await as('editor2');
    const [a, b] = await Promise.all([lock('editor', [C1]), lock('editor2', [C1])]);
    const winners = [a.json()[0], b.json()[0]].filter((x) => x.acquired);
    expect(winners).toHaveLength(1);
    expect(a.json()[0].userLock).toBe(winners[0].userLock);
    expect(b.json()[0].userLock).toBe(winners[0].userLock);
  });

  it('compares the owner case-insensitively', async () => {
    await lockRow(db(), 'C1', 'M01_2027', 'EDITOR');
    const res = await lock('editor', [C1]);
    expect(res.json()[0]).toMatchObject({ acquired: true, locked: true });
    expect(res.json()[0].userLock.toLowerCase()).toBe('editor');
  });

  it('takes over a lock that lapsed', async () => {
    await lockRow(db(), 'C1', 'M01_2027', 'editor2', new Date(Date.now() - 121 * 60_000));
    expect((await lock('editor', [C1])).json()[0]).toMatchObject({ acquired: true, userLock: 'editor' });
  });

  it('does not lock for a user without edit right, nor in a closed month or release', async () => {
    expect((await lock('viewer', [C1])).json()).toEqual([{ ...C1, locked: false, userLock: null, acquired: false }]);
    expect((await lock('naeditor', [C1])).json()[0].acquired).toBe(false);
    await db().update(months).set({ open: false }).where(eq(months.monthId, 'M02_2027'));
    expect((await lock('editor', [{ clusterId: 'C1', monthId: 'M02_2027' }])).json()[0].acquired).toBe(false);
    await db().update(releases).set({ status: 'CLOSED' });
    expect((await lock('editor', [C1])).json()[0].acquired).toBe(false);
    expect(await db().select().from(locks)).toHaveLength(0);
  });

  it('leaves unknown and deleted clusters out of the answer', async () => {
    await db().update(clusters).set({ deletionStatus: 'DELETED' }).where(eq(clusters.clusterId, 'C2'));
    const res = await lock('editor', [C1, { clusterId: 'C2', monthId: 'M01_2027' }, { clusterId: 'XX', monthId: 'M01_2027' }]);
    expect(res.json().map((r: { clusterId: string }) => r.clusterId)).toEqual(['C1']);
  });
});

describe('POST /api/cluster/unlock', () => {
  it("without forced releases only the caller's own locks", async () => {
    await lock('editor', [C1]);
    const other = await post('editor2', '/api/cluster/unlock', [C1]);
    expect(other.json()).toEqual([{ ...C1, locked: true, userLock: 'editor' }]);
    const own = await post('editor', '/api/cluster/unlock?forced=false', [C1]);
    expect(own.json()).toEqual([{ ...C1, locked: false, userLock: null }]);
  });

  it("forced removes another user's lock, is audited, and the old owner's save answers 422", async () => {
    await lock('editor', [C1]);
    const res = await post('editor2', '/api/cluster/unlock?forced=true', [C1]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ ...C1, locked: false, userLock: null }]);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'lock-override'));
    expect(entry).toMatchObject({ username: 'editor2', itemType: 'cluster', itemKey: 'C1', monthId: 'M01_2027', summary: { previousOwner: 'editor' } });

    const save = await post('editor', '/api/cluster/save', [{ ...C1, clusterDescription: 'Mine' }]);
    expect(save.statusCode).toBe(422);
    expect(save.json()).toEqual({ error: 'clusterNotLocked', message: "Sorry! The cluster was unlocked by another user, you can't save or publish." });
    expect((await clusterRow('C1')).clusterDescription).toBe('First');
  });

  it('forced is refused (403) to a user without edit right on the cluster, and allowed to an admin', async () => {
    await lock('editor', [C1]);
    expect((await post('viewer', '/api/cluster/unlock?forced=true', [C1])).statusCode).toBe(403);
    expect((await post('naeditor', '/api/cluster/unlock?forced=true', [C1])).statusCode).toBe(403);
    expect((await post('admin', '/api/cluster/unlock?forced=true', [C1])).json()[0].locked).toBe(false);
  });

  it('does not audit a forced unlock of the caller\'s own lock', async () => {
    await lock('editor', [C1]);
    await post('editor', '/api/cluster/unlock?forced=true', [C1]);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'lock-override'))).toHaveLength(0);
  });
});

describe('POST /api/cluster/save', () => {
  const save = (user: ClusterWorldUser, body: unknown, query = '') => post(user, `/api/cluster/save${query}`, body);

  it('saves modules, LIAs, classifications and description, bumps the version and audits', async () => {
    await lock('editor', [C1]);
    const body = await detailsOf('editor');
    body.clusterDescription = 'New description';
    body.modules = [
      { ...body.modules[0], clusterCompositionStatus: 'REMOVED' },
      { moduleName: 'A3', clusterCompositionStatus: 'ADDED' },
      { moduleName: 'W1', clusterCompositionStatus: 'ADDED' },
    ];
    body.lias = [
      { liaCode: 'LIA01', planningChannelId: 'RETAIL', isChecked: false },
      { liaCode: 'LIA02', planningChannelId: 'RETAIL', isChecked: true },
    ];
    body.classifications = [];
    const res = await save('editor', [body]);
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.errorsMap).toEqual({});
    expect(answer.unauthorizedList).toEqual([]);
    expect(answer.clusterDtoList[0]).toMatchObject({ clusterId: 'C1', clusterDescription: 'New description', classifications: [], locked: true, userLock: 'editor' });
    expect(answer.clusterDtoList[0].lias.filter((l: { isChecked: boolean }) => l.isChecked).map((l: { liaCode: string }) => l.liaCode)).toEqual(['LIA02']);
    expect(await moduleRowsOf('C1')).toEqual({ A1: 'REMOVED', A3: 'ADDED', W1: 'ADDED' });
    const row = await clusterRow('C1');
    expect(row.version).toBe(2);
    expect(row.updatedBy).toBe('editor');
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'save'));
    expect(entry).toMatchObject({
      username: 'editor',
      itemKey: 'C1',
      monthId: 'M01_2027',
      summary: {
        before: { added: 2, removed: 1, lias: ['LIA01'] },
        after: { added: 2, removed: 1, lias: ['LIA02'], classifications: [] },
        descriptionChanged: true,
      },
    });
  });

  it('keeps the parts the body leaves out', async () => {
    await lock('editor', [C1]);
    const res = await save('editor', [{ ...C1, clusterDescription: 'Only text' }]);
    expect(res.statusCode).toBe(200);
    expect(await moduleRowsOf('C1')).toEqual({ A1: 'ADDED', A2: 'ADDED', A3: 'REMOVED' });
    expect((await clusterRow('C1')).clusterDescription).toBe('Only text');
  });

  it('refuses a description longer than 100 characters with 400', async () => {
    await lock('editor', [C1]);
    const res = await save('editor', [{ ...C1, clusterDescription: 'x'.repeat(101) }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toContain('clusterDescription');
    expect((await save('editor', [{ ...C1, clusterDescription: 'x'.repeat(100) }])).statusCode).toBe(200);
  });

  it('refuses a bad composition status, a module given twice and a cluster given twice with 400', async () => {
    await lock('editor', [C1]);
    expect((await save('editor', [{ ...C1, modules: [{ moduleName: 'A1', clusterCompositionStatus: 'NEW' }] }])).statusCode).toBe(400);
    const twice = [{ moduleName: 'A1', clusterCompositionStatus: 'ADDED' }, { moduleName: 'A1', clusterCompositionStatus: 'REMOVED' }];
    expect((await save('editor', [{ ...C1, modules: twice }])).statusCode).toBe(400);
    expect((await save('editor', [C1, C1])).statusCode).toBe(400);
  });

  it("answers 400 'At least one lia must be selected' when no LIA is checked, and 400 for an unknown LIA", async () => {
    await lock('editor', [C1]);
    const none = await save('editor', [{ ...C1, lias: [{ liaCode: 'LIA01', isChecked: false }] }]);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('At least one lia must be selected');
    const unknown = await save('editor', [{ ...C1, lias: [{ liaCode: 'NOPE', isChecked: true }] }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('NOPE');
    expect(await db().select().from(clusterLias).where(eq(clusterLias.clusterPk, world.c1.id))).toEqual([{ clusterPk: world.c1.id, liaCode: 'LIA01' }]);
  });

  it('answers 404 for an unknown or deleted cluster', async () => {
    expect((await save('editor', [{ clusterId: 'NOPE', monthId: 'M01_2027' }])).statusCode).toBe(404);
    await lock('editor', [{ clusterId: 'C2', monthId: 'M01_2027' }]);
    await db().update(clusters).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(clusters.clusterId, 'C2'));
    expect((await save('editor', [{ clusterId: 'C2', monthId: 'M01_2027' }])).statusCode).toBe(404);
  });

  it('answers 422 clusterNotLocked when the caller does not hold the lock of every cluster', async () => {
    await lock('editor', [C1]);
    await lock('editor2', [{ clusterId: 'C2', monthId: 'M01_2027' }]);
    const res = await save('editor', [C1, { clusterId: 'C2', monthId: 'M01_2027', clusterDescription: 'x' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('clusterNotLocked');
    expect((await save('editor', [{ clusterId: 'C3', monthId: 'M01_2027' }])).json().error).toBe('clusterNotLocked');
  });

  it('accepts a lock held under the same user name in another case', async () => {
    await lockRow(db(), 'C1', 'M01_2027', 'Editor');
    expect((await save('editor', [{ ...C1, clusterDescription: 'ok' }])).statusCode).toBe(200);
  });

  it('puts an unknown module in errorsMap (moduleNotAllowedInCluster) and saves nothing', async () => {
    await lock('editor', [C1, { clusterId: 'C2', monthId: 'M01_2027' }]);
    const res = await save('editor', [
      { ...C1, clusterDescription: 'changed', modules: [{ moduleName: 'GHOST', clusterCompositionStatus: 'ADDED' }] },
      { clusterId: 'C2', monthId: 'M01_2027', clusterDescription: 'changed too' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().errorsMap).toEqual({ C1: ['moduleNotAllowedInCluster'] });
    expect(res.json().unauthorizedList).toEqual([]);
    expect(res.json().clusterDtoList.map((c: { clusterDescription: string }) => c.clusterDescription)).toEqual(['First', '']);
    expect((await clusterRow('C1')).clusterDescription).toBe('First');
    expect((await clusterRow('C2')).clusterDescription).toBe('');
    expect(await moduleRowsOf('C1')).toEqual({ A1: 'ADDED', A2: 'ADDED', A3: 'REMOVED' });
  });

  it("refuses another brand's module, a deleted module and a module of another month the same way", async () => {
    await lock('editor', [C1]);
    for (const moduleName of ['V1', 'D1']) {
      const res = await save('editor', [{ ...C1, modules: [{ moduleName, clusterCompositionStatus: 'ADDED' }] }]);
      expect(res.json().errorsMap).toEqual({ C1: ['moduleNotAllowedInCluster'] });
    }
    await lock('editor', [{ clusterId: 'C1', monthId: 'M02_2027' }]);
    const res = await save('editor', [{ clusterId: 'C1', monthId: 'M02_2027', modules: [{ moduleName: 'A2', clusterCompositionStatus: 'ADDED' }] }]);
    expect(res.json().errorsMap).toEqual({ C1: ['moduleNotAllowedInCluster'] });
    expect(await moduleRowsOf('C1')).toEqual({ A1: 'ADDED', A2: 'ADDED', A3: 'REMOVED' });
  });

  it('lists clusters the caller may not edit in unauthorizedList (by label) and saves nothing', async () => {
    const CUS = { clusterId: 'CUS', monthId: 'M01_2027' };
    await lock('naeditor', [CUS]);
    await lockRow(db(), 'C1', 'M01_2027', 'naeditor');
    const res = await save('naeditor', [
      { ...CUS, clusterDescription: 'US doors' },
      { ...C1, clusterDescription: 'not mine' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().unauthorizedList).toEqual(['C1 label']);
    expect(res.json().errorsMap).toEqual({});
    expect((await clusterRow('CUS')).clusterDescription).toBe('');
    expect((await clusterRow('C1')).clusterDescription).toBe('First');
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'save'))).toHaveLength(0);
  });

  it('reopens a SUBMITTED cluster as WIP', async () => {
    const oct = { clusterId: 'C1', monthId: 'M10_2027' };
    await lock('editor', [oct]);
    const res = await save('editor', [{ ...oct, modules: [{ moduleName: 'A1', clusterCompositionStatus: 'REMOVED' }] }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().clusterDtoList[0].status).toBe('WIP');
    expect((await clusterRow('C1', 'M10_2027')).status).toBe('WIP');
  });

  it('with onlyDescription=true saves only the description', async () => {
    await lock('editor', [C1]);
    const res = await save(
      'editor',
      [{ ...C1, clusterDescription: 'Described', modules: [{ moduleName: 'GHOST', clusterCompositionStatus: 'ADDED' }], lias: [] }],
      '?onlyDescription=true',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().errorsMap).toEqual({});
    expect((await clusterRow('C1')).clusterDescription).toBe('Described');
    expect(await moduleRowsOf('C1')).toEqual({ A1: 'ADDED', A2: 'ADDED', A3: 'REMOVED' });
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'save'));
    expect(entry!.summary).toMatchObject({ onlyDescription: true, descriptionChanged: true });
  });

  it('answers 422 submitInProgress, monthClosed and releaseClosed', async () => {
    await lock('editor', [C1]);
    await db().update(clusters).set({ status: 'SUBMIT_IN_PROGRESS' }).where(eq(clusters.id, world.c1.id));
    const sip = await save('editor', [{ ...C1, clusterDescription: 'x' }]);
    expect(sip.statusCode).toBe(422);
    expect(sip.json().error).toBe('submitInProgress');

    await lockRow(db(), 'C1', 'M02_2027', 'editor');
    await db().update(months).set({ open: false }).where(eq(months.monthId, 'M02_2027'));
    const closed = await save('editor', [{ clusterId: 'C1', monthId: 'M02_2027', clusterDescription: 'x' }]);
    expect(closed.statusCode).toBe(422);
    expect(closed.json().error).toBe('monthClosed');

    await lock('editor', [{ clusterId: 'C2', monthId: 'M01_2027' }]);
    await db().update(releases).set({ status: 'CLOSED' });
    const released = await save('editor', [{ clusterId: 'C2', monthId: 'M01_2027', clusterDescription: 'x' }]);
    expect(released.statusCode).toBe(422);
    expect(released.json().error).toBe('releaseClosed');
  });

  it('needs a token', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/cluster/save', payload: [C1] });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/cluster/:clusterId/months', () => {
  const get = async (user: ClusterWorldUser, url: string) => app.inject({ method: 'GET', url, headers: await as(user) });

  it('for copy: every open month but the given one, sorted', async () => {
    const res = await get('editor', '/api/cluster/C1/months?monthId=M01_2027');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['M02_2027', 'M10_2027']);
    expect((await get('editor', '/api/cluster/C2/months?monthId=M01_2027&purpose=copy')).json()).toEqual(['M02_2027', 'M10_2027']);
  });

  it('for delete: the open months in which the cluster exists, not deleted', async () => {
    await db()
      .update(clusters)
      .set({ deletionStatus: 'DELETION_PENDING' })
      .where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M10_2027')));
    const res = await get('editor', '/api/cluster/C1/months?monthId=M01_2027&purpose=delete');
    expect(res.json()).toEqual(['M01_2027', 'M02_2027']);
    expect((await get('editor', '/api/cluster/C2/months?purpose=delete')).json()).toEqual(['M01_2027']);
  });

  it('answers 404 for an unknown cluster, 403 when the caller may not see it, 400 without monthId for copy', async () => {
    expect((await get('editor', '/api/cluster/NOPE/months?monthId=M01_2027')).statusCode).toBe(404);
    expect((await get('editor', '/api/cluster/C2/months?monthId=M02_2027')).statusCode).toBe(404);
    expect((await get('editor', '/api/cluster/CV/months?monthId=M01_2027')).statusCode).toBe(403);
    expect((await get('editor', '/api/cluster/C1/months')).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  // On a bare app: the whole app's document also depends on other areas' route schemas.
  it('describes the cluster calls from their schemas', async () => {
    const bare = Fastify();
    bare.setValidatorCompiler(validatorCompiler);
    bare.setSerializerCompiler(serializerCompiler);
    await registerOpenApi(bare);
    await bare.register(clusterLifecycleRoutes);
    await bare.ready();
    const doc = bare.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    await bare.close();
    for (const p of ['/api/cluster/clusterDetails', '/api/cluster/lock', '/api/cluster/unlock', '/api/cluster/save', '/api/cluster/checkForPublish', '/api/cluster/publish', '/api/cluster/copyCompositions'])
      expect(doc.paths[p]?.post?.responses['200']).toBeDefined();
    expect(doc.paths['/api/cluster/{clusterId}/months']?.get?.responses['200']).toBeDefined();
    expect(CLUSTER_TEXTS.clusterNotLocked).toBe("Sorry! The cluster was unlocked by another user, you can't save or publish.");
  });
});
