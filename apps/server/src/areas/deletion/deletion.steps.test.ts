import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { buildCluster } from '../../../test/builders.js';
import {
  buildDeletionApp,
  buildModuleInMonths,
  clusterStatuses,
  moduleStatuses,
  setModuleDeletionStatus,
  type DeletionUser,
} from '../../../test/deletion-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { auditLog, clusterModules, clusters, deletionRequests } from '../../db/schema.js';
import { DELETION_STEP_INTERVAL_MS, registerDeletionJobs, runDeletionSteps } from './deletion.steps.js';

let app: FastifyInstance;
let as: TestApp<DeletionUser>['as'];
const db = () => app.database.db;

beforeEach(async () => {
  ({ app, as } = await buildDeletionApp());
  await buildModuleInMonths(db(), { moduleName: 'MOD1' }, ['M01_2027', 'M02_2027', 'M10_2027']);
  await buildCluster(db(), { clusterId: 'CLJAN', monthId: 'M01_2027', modules: [{ moduleName: 'MOD1' }] });
  await buildCluster(db(), { clusterId: 'CLFEB', monthId: 'M02_2027', modules: [{ moduleName: 'MOD1' }, { moduleName: 'OTHER' }] });
  await buildCluster(db(), { clusterId: 'CLBIN', monthId: 'M02_2027', modules: [{ moduleName: 'MOD1', status: 'REMOVED' }] });
});
afterEach(async () => {
  await app.close();
});

async function deleteFrom(monthId: string, body: object[] = [{ moduleName: 'MOD1', monthId }], url = '/api/module') {
  const headers = await as('deleter');
  const res = await app.inject({ method: 'DELETE', url, headers, payload: body });
  expect(res.statusCode).toBe(200);
}

async function modulesOfCluster(clusterId: string) {
  const rows = await db()
    .select({ moduleName: clusterModules.moduleName })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .where(eq(clusters.clusterId, clusterId))
    .orderBy(clusterModules.moduleName);
  return rows.map((r) => r.moduleName);
}

const request = async () => (await db().select().from(deletionRequests))[0]!;

describe('the scheduled deletion step', () => {
  it('with graceMs 0 moves DELETION_PENDING rows through to DELETED and takes the module out of that month’s clusters', async () => {
    await deleteFrom('M02_2027');
    const report = await runDeletionSteps(db(), { graceMs: 0 });
    expect(report).toEqual({ ready: 2, inProgress: 2, deleted: 2, errors: 0 });
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({ M01_2027: null, M02_2027: 'DELETED', M10_2027: 'DELETED' });
    expect(await modulesOfCluster('CLFEB')).toEqual(['OTHER']);
    expect(await modulesOfCluster('CLBIN')).toEqual([]);
    expect(await modulesOfCluster('CLJAN')).toEqual(['MOD1']);
    const [feb] = await db().select().from(clusters).where(eq(clusters.clusterId, 'CLFEB'));
    expect(feb!.version).toBe(2);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'deleted'));
    expect(audits.map((a) => [a.username, a.itemKey, a.monthId]).sort()).toEqual([
      ['system', 'MOD1', 'M02_2027'],
      ['system', 'MOD1', 'M10_2027'],
    ]);
    // Nothing left to do.
    expect(await runDeletionSteps(db(), { graceMs: 0 })).toEqual({ ready: 0, inProgress: 0, deleted: 0, errors: 0 });
  });

  it('leaves deletions younger than the grace period restorable', async () => {
    await deleteFrom('M01_2027');
    expect((await runDeletionSteps(db())).ready).toBe(0);
    expect((await runDeletionSteps(db(), { graceMs: 60_000 })).ready).toBe(0);
    expect(Object.values(await moduleStatuses(db(), 'MOD1'))).toEqual(['DELETION_PENDING', 'DELETION_PENDING', 'DELETION_PENDING']);
    await db().update(deletionRequests).set({ requestedAt: sql`now() - interval '61 minutes'` });
    expect(await runDeletionSteps(db())).toMatchObject({ ready: 3, deleted: 3 });
  });

  it('ignores a restored (inactive) request', async () => {
    await deleteFrom('M01_2027');
    await db().update(deletionRequests).set({ active: false });
    expect((await runDeletionSteps(db(), { graceMs: 0 })).ready).toBe(0);
  });

  it('finishes rows left READY_TO_BE_DELETED or DELETION_IN_PROGRESS by a process that stopped', async () => {
    await deleteFrom('M02_2027');
    await setModuleDeletionStatus(db(), 'MOD1', 'M02_2027', 'READY_TO_BE_DELETED');
    await setModuleDeletionStatus(db(), 'MOD1', 'M10_2027', 'DELETION_IN_PROGRESS');
    expect(await runDeletionSteps(db(), { graceMs: 0 })).toEqual({ ready: 0, inProgress: 1, deleted: 2, errors: 0 });
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({ M01_2027: null, M02_2027: 'DELETED', M10_2027: 'DELETED' });
  });

  it('moves a module used by a cluster being submitted to DELETION_ERROR with the message, and finishes it once the submission is over', async () => {
    await db().update(clusters).set({ status: 'SUBMIT_IN_PROGRESS' }).where(eq(clusters.clusterId, 'CLFEB'));
    await deleteFrom('M02_2027');
    expect(await runDeletionSteps(db(), { graceMs: 0 })).toEqual({ ready: 2, inProgress: 2, deleted: 1, errors: 1 });
    expect(await moduleStatuses(db(), 'MOD1')).toEqual({ M01_2027: null, M02_2027: 'DELETION_ERROR', M10_2027: 'DELETED' });
    expect((await request()).errorMessage).toBe('The module is used by cluster CLFEB label being submitted');
    expect(await modulesOfCluster('CLFEB')).toEqual(['MOD1', 'OTHER']);
    expect(await modulesOfCluster('CLBIN')).toEqual(['MOD1']);
    const errors = await db().select().from(auditLog).where(eq(auditLog.action, 'deletion-error'));
    expect(errors).toHaveLength(1);

    // The Deletion Area shows the message.
    const headers = await as('deleter');
    const search = await app.inject({ method: 'POST', url: '/api/module/deleted', headers, payload: { status: ['DELETION_ERROR'] } });
    expect(search.json().content).toMatchObject([{ moduleName: 'MOD1', status: 'DELETION_ERROR', errorMessage: 'The module is used by cluster CLFEB label being submitted' }]);

    // Still being submitted: nothing changes (and no second audit entry).
    expect(await runDeletionSteps(db(), { graceMs: 0 })).toEqual({ ready: 0, inProgress: 0, deleted: 0, errors: 0 });
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'deletion-error'))).toHaveLength(1);

    await db().update(clusters).set({ status: 'SUBMITTED' }).where(eq(clusters.clusterId, 'CLFEB'));
    expect(await runDeletionSteps(db(), { graceMs: 0 })).toMatchObject({ deleted: 1, errors: 0 });
    expect((await moduleStatuses(db(), 'MOD1')).M02_2027).toBe('DELETED');
    expect((await request()).errorMessage).toBeNull();
    expect(await modulesOfCluster('CLFEB')).toEqual(['OTHER']);
  });

  it('names every cluster being submitted', async () => {
    await db().update(clusters).set({ status: 'SUBMIT_IN_PROGRESS' }).where(eq(clusters.monthId, 'M02_2027'));
    await deleteFrom('M02_2027');
    await runDeletionSteps(db(), { graceMs: 0 });
    expect((await request()).errorMessage).toBe('The module is used by cluster CLBIN label, CLFEB label being submitted');
  });

  it('deletes clusters too', async () => {
    await buildCluster(db(), { clusterId: 'CLFEB', monthId: 'M10_2027' });
    await deleteFrom('M02_2027', [{ clusterId: 'CLFEB', monthId: 'M02_2027' }], '/api/cluster');
    expect(await runDeletionSteps(db(), { graceMs: 0 })).toEqual({ ready: 2, inProgress: 2, deleted: 2, errors: 0 });
    expect(await clusterStatuses(db(), 'CLFEB')).toEqual({ M02_2027: 'DELETED', M10_2027: 'DELETED' });
    // The cluster row and its composition stay; it is just no longer live.
    expect(await modulesOfCluster('CLFEB')).toEqual(['MOD1', 'OTHER']);
  });

  it('moves each row once when two processes run the step at the same time', async () => {
    await buildModuleInMonths(db(), { moduleName: 'MOD2' }, ['M01_2027', 'M02_2027', 'M10_2027']);
    await deleteFrom('M01_2027', [
      { moduleName: 'MOD1', monthId: 'M01_2027' },
      { moduleName: 'MOD2', monthId: 'M01_2027' },
    ]);
    const [a, b] = await Promise.all([runDeletionSteps(db(), { graceMs: 0 }), runDeletionSteps(db(), { graceMs: 0 })]);
    expect(a!.ready + b!.ready).toBe(6);
    expect(a!.inProgress + b!.inProgress).toBe(6);
    expect(a!.deleted + b!.deleted).toBe(6);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'deleted'))).toHaveLength(6);
    expect(Object.values(await moduleStatuses(db(), 'MOD2')).every((s) => s === 'DELETED')).toBe(true);
  });

  it('registerDeletionJobs runs the step every 30 seconds on the job runner', async () => {
    const every = vi.spyOn(app.jobs, 'every');
    registerDeletionJobs(app.jobs, db(), 0);
    expect(every).toHaveBeenCalledWith('deletion-steps', DELETION_STEP_INTERVAL_MS, expect.any(Function));
    expect(DELETION_STEP_INTERVAL_MS).toBe(30_000);
    await deleteFrom('M10_2027');
    await every.mock.calls[0]![2]();
    expect((await moduleStatuses(db(), 'MOD1')).M10_2027).toBe('DELETED');
  });
});
