import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { buildClusterWorldApp, lockRow, type ClusterWorld, type ClusterWorldUser } from '../../../test/cluster-test-app.js';
import type { TestApp } from '../../../test/test-app.js';
import { auditLog, clusterModules, clusters, clusterStores, jobs, modules, months, userGrants } from '../../db/schema.js';

let app: FastifyInstance;
let dataDir: string;
let world: ClusterWorld;
let as: TestApp<ClusterWorldUser>['as'];
let users: TestApp<ClusterWorldUser>['users'];

beforeEach(async () => {
  ({ app, as, world, dataDir, users } = await buildClusterWorldApp());
});
afterEach(async () => {
  await app.close();
});

const post = async (user: ClusterWorldUser, url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: await as(user) });
const lock = (user: ClusterWorldUser, keys: { clusterId: string; monthId: string }[]) => post(user, '/api/cluster/lock', keys);
const db = () => app.database.db;
const key = (clusterId: string, monthId = 'M01_2027') => ({ clusterId, monthId });
const C1 = key('C1');

async function clusterRow(clusterId: string, monthId = 'M01_2027') {
  const [row] = await db()
    .select()
    .from(clusters)
    .where(and(eq(clusters.clusterId, clusterId), eq(clusters.monthId, monthId)));
  return row!;
}

const MODULES_IN_WIP =
  'It is not possible to publish the cluster, because there are modules in work in progress. Please publish all modules WIP before publishing the entire cluster.';

describe('POST /api/cluster/checkForPublish', () => {
  it('lists the other clusters of the same month and brand with exactly the same ADDED modules', async () => {
    await lock('editor', [C1, key('C3')]);
    const res = await post('editor', '/api/cluster/checkForPublish', [C1, key('C3')]);
    expect(res.statusCode).toBe(200);
    // C2 has A1+A2 like C1 (C1's REMOVED A3 does not count); C3 (A1) equals CUS (A1); CV is another brand.
    expect(res.json().clusterDuplicatedResponseMap).toEqual({ C1: ['C2'], C3: ['CUS'] });
  });

  it("uses the body's unsaved modules, also against the other clusters of the body", async () => {
    await lock('editor', [C1, key('C2')]);
    const body = [
      { ...C1, country: [null], modules: [{ moduleName: 'A1', clusterCompositionStatus: 'ADDED' }, { moduleName: 'A2', clusterCompositionStatus: 'REMOVED' }] },
      { ...key('C2'), modules: [{ moduleName: 'A3', clusterCompositionStatus: 'ADDED' }] },
    ];
    const res = await post('editor', '/api/cluster/checkForPublish', body);
    expect(res.json().clusterDuplicatedResponseMap).toEqual({ C1: ['C3', 'CUS'] });
  });

  it('answers an empty map when nothing is duplicated, and does not match clusters without modules', async () => {
    await db().delete(clusterModules);
    await lock('editor', [C1]);
    expect((await post('editor', '/api/cluster/checkForPublish', [C1])).json().clusterDuplicatedResponseMap).toEqual({});
  });

  it('answers 422 clusterNotLocked when the caller does not hold the lock', async () => {
    await lockRow(db(), 'C1', 'M01_2027', 'submitter');
    const res = await post('editor', '/api/cluster/checkForPublish', [C1]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'clusterNotLocked', message: "Sorry! The cluster was unlocked by another user, you can't save or publish." });
  });

  it('answers a lock holder who may no longer view the cluster exactly as it answers an unknown cluster', async () => {
    await lock('editor2', [C1]);
    // editor2 keeps the lock but loses the grant: their grants now name VLT only.
    await db()
      .update(userGrants)
      .set({ grantCode: 'VLT' })
      .where(and(eq(userGrants.userId, users.editor2.userId), eq(userGrants.grantType, 'brand')));
    const invisible = await post('editor2', '/api/cluster/checkForPublish', [C1]);
    expect(invisible.statusCode).toBe(404);
    expect(invisible.body).not.toContain('label');

    await db()
      .update(clusters)
      .set({ deletionStatus: 'DELETED' })
      .where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M01_2027')));
    const unknown = await post('editor2', '/api/cluster/checkForPublish', [C1]);
    expect({ status: invisible.statusCode, body: invisible.json() }).toEqual({ status: unknown.statusCode, body: unknown.json() });
    expect(unknown.json()).toEqual({ error: 'notFound', message: 'The cluster C1 does not exist in M01_2027' });
  });
});

describe('POST /api/cluster/publish', () => {
  const publish = (user: ClusterWorldUser, body: unknown) => post(user, '/api/cluster/publish', body);

  it('starts the submission (SUBMIT_IN_PROGRESS), then the job makes the cluster SUBMITTED', async () => {
    await lock('submitter', [C1]);
    const res = await publish('submitter', [C1]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'The submission process has been started',
      jobId: expect.any(Number),
      clusters: [{ clusterId: 'C1', monthId: 'M01_2027', clusterLabel: 'C1 label', published: true, reasons: [] }],
    });
    expect((await clusterRow('C1')).status).toBe('SUBMIT_IN_PROGRESS');
    const [job] = await db().select().from(jobs).where(eq(jobs.id, res.json().jobId));
    expect(job).toMatchObject({ kind: 'publish', status: 'QUEUED', createdBy: 'submitter' });
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'publish'))).toHaveLength(1);

    await app.jobs.drain();
    const row = await clusterRow('C1');
    expect(row.status).toBe('SUBMITTED');
    expect(row.publicationDate).toBeInstanceOf(Date);
    expect(row.rpasErrors).toBeNull();
    const [file] = await fs.readdir(path.join(dataDir, 'outbox'));
    const sent = JSON.parse(await fs.readFile(path.join(dataDir, 'outbox', file!), 'utf8'));
    expect(sent.payload.stores).toHaveLength(2);
    expect(sent.payload.modules.map((m: { moduleName: string }) => m.moduleName).sort()).toEqual(['A1', 'A2']);
    const details = (await post('submitter', '/api/cluster/clusterDetails', [C1])).json()[0];
    expect(details.status).toBe('SUBMITTED');
    expect(details.publicationDate).toEqual(expect.any(String));
  });

  it("a cluster without stores is rejected by the planning system: back to WIP with 'The cluster has no store'", async () => {
    await lock('submitter', [C1]);
    expect((await publish('submitter', [C1])).statusCode).toBe(200);
    // The stores go after the checks passed, before the planning system gets the cluster.
    await db().delete(clusterStores).where(eq(clusterStores.clusterPk, world.c1.id));
    await app.jobs.drain();
    const row = await clusterRow('C1');
    expect(row.status).toBe('WIP');
    expect(row.rpasErrors).toBe('The cluster has no store');
    expect((await post('submitter', '/api/cluster/clusterDetails', [C1])).json()[0].rpasErrors).toBe('The cluster has no store');
  });

  it('is refused with the exact text while an ADDED module is WIP (a REMOVED one does not count)', async () => {
    await lock('submitter', [C1]);
    await db().update(modules).set({ status: 'WIP' }).where(and(eq(modules.moduleName, 'A3'), eq(modules.monthId, 'M01_2027')));
    expect((await publish('submitter', [C1])).statusCode).toBe(200);
    await app.jobs.drain();

    await lock('submitter', [key('C2')]);
    await db().update(modules).set({ status: 'WIP' }).where(and(eq(modules.moduleName, 'A2'), eq(modules.monthId, 'M01_2027')));
    const res = await publish('submitter', [key('C2')]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'modulesInWip', message: MODULES_IN_WIP });
    expect((await clusterRow('C2')).status).toBe('WIP');
  });

  it('publishes the clusters of a page that a WIP module does not block; the blocked one waits, its edits not saved (issue 34 item 3)', async () => {
    // A2 goes WIP: it blocks C2 (A1 + A2), not C3 (A1 only). The page used to be refused as a whole.
    await db().update(modules).set({ status: 'WIP' }).where(and(eq(modules.moduleName, 'A2'), eq(modules.monthId, 'M01_2027')));
    await lock('submitter', [key('C2'), key('C3')]);
    const res = await publish('submitter', [
      { ...key('C2'), clusterDescription: 'Blocked edit' },
      { ...key('C3'), clusterDescription: 'Published edit' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().clusters).toEqual([
      {
        clusterId: 'C2',
        monthId: 'M01_2027',
        clusterLabel: 'C2 label',
        published: false,
        reasons: [{ code: 'moduleInWip', message: 'The module A2 is in work in progress', moduleName: 'A2' }],
      },
      { clusterId: 'C3', monthId: 'M01_2027', clusterLabel: 'C3 label', published: true, reasons: [] },
    ]);
    expect(await clusterRow('C2')).toMatchObject({ status: 'WIP', version: 1 });
    expect((await clusterRow('C2')).clusterDescription).not.toBe('Blocked edit');
    expect(await clusterRow('C3')).toMatchObject({ status: 'SUBMIT_IN_PROGRESS', clusterDescription: 'Published edit', version: 2 });
    await app.jobs.drain();
    expect((await clusterRow('C3')).status).toBe('SUBMITTED');
    expect((await clusterRow('C2')).status).toBe('WIP');
  });

  it("counts the body's modules: adding a WIP module in the body blocks, and nothing is saved", async () => {
    await lock('submitter', [C1]);
    const body = [{ ...C1, modules: [{ moduleName: 'A1', clusterCompositionStatus: 'ADDED' }, { moduleName: 'W1', clusterCompositionStatus: 'ADDED' }] }];
    const res = await publish('submitter', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(MODULES_IN_WIP);
    const names = (await db().select().from(clusterModules).where(eq(clusterModules.clusterPk, world.c1.id))).map((m) => m.moduleName).sort();
    expect(names).toEqual(['A1', 'A2', 'A3']);
  });

  it('saves the body first, in the same transaction, then publishes', async () => {
    await lock('submitter', [C1]);
    const body = [
      {
        ...C1,
        clusterDescription: 'Published text',
        modules: [{ moduleName: 'A1', clusterCompositionStatus: 'ADDED' }, { moduleName: 'A2', clusterCompositionStatus: 'REMOVED' }],
        lias: [{ liaCode: 'LIA02', isChecked: true }],
      },
    ];
    const res = await publish('submitter', body);
    expect(res.statusCode).toBe(200);
    const row = await clusterRow('C1');
    expect(row).toMatchObject({ status: 'SUBMIT_IN_PROGRESS', clusterDescription: 'Published text', version: 2 });
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'save'))).toHaveLength(1);
    await app.jobs.drain();
    const [file] = await fs.readdir(path.join(dataDir, 'outbox'));
    const sent = JSON.parse(await fs.readFile(path.join(dataDir, 'outbox', file!), 'utf8'));
    expect(sent.payload.modules.map((m: { moduleName: string }) => m.moduleName)).toEqual(['A1']);
    expect(sent.payload.lias).toEqual(['LIA02']);
  });

  it('refuses a body with a module not allowed in the cluster (422) and saves nothing', async () => {
    await lock('submitter', [C1]);
    const res = await publish('submitter', [{ ...C1, clusterDescription: 'x', modules: [{ moduleName: 'V1', clusterCompositionStatus: 'ADDED' }] }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'moduleNotAllowedInCluster', message: 'Error in cluster C1: cannot add selected module' });
    expect(await clusterRow('C1')).toMatchObject({ status: 'WIP', clusterDescription: 'First', version: 1 });
  });

  it('publishes an unchanged cluster for a user with submit but no edit grant; a change needs edit (403)', async () => {
    await lockRow(db(), 'C1', 'M01_2027', 'pubonly');
    const details = (await post('pubonly', '/api/cluster/clusterDetails', [C1])).json();
    const changed = [{ ...details[0], clusterDescription: 'changed' }];
    const refused = await publish('pubonly', changed);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'cannotEditCluster', message: 'Cannot edit cluster(s) C1 label' });
    expect((await publish('pubonly', details)).statusCode).toBe(200);
  });

  it('is refused (422 notWip) for a cluster that is not WIP', async () => {
    const oct = key('C1', 'M10_2027');
    await lock('submitter', [oct]);
    const res = await publish('submitter', [oct]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'notWip', message: 'Only clusters in WIP can be published.' });
    await db().update(clusters).set({ status: 'SUBMIT_IN_PROGRESS' }).where(eq(clusters.id, world.c1.id));
    await lockRow(db(), 'C1', 'M01_2027', 'submitter');
    expect((await publish('submitter', [C1])).json().error).toBe('notWip');
  });

  it('needs a submit grant (403) and the lock (422), and is all or nothing', async () => {
    await lock('editor', [C1]);
    const noSubmit = await publish('editor', [C1]);
    expect(noSubmit.statusCode).toBe(403);
    expect((await publish('viewer', [C1])).statusCode).toBe(403);

    await lock('submitter', [key('C2')]);
    const notLocked = await publish('submitter', [key('C2'), C1]);
    expect(notLocked.statusCode).toBe(422);
    expect(notLocked.json().error).toBe('clusterNotLocked');
    expect((await clusterRow('C2')).status).toBe('WIP');
    expect(await db().select().from(jobs)).toHaveLength(0);
  });

  it('lets an admin publish several clusters with one job', async () => {
    await lock('admin', [C1, key('C2'), key('CV')]);
    const res = await publish('admin', [C1, key('C2'), key('CV')]);
    expect(res.statusCode).toBe(200);
    expect(await db().select().from(jobs)).toHaveLength(1);
    await app.jobs.drain();
    for (const id of ['C1', 'C2', 'CV']) expect((await clusterRow(id)).status).toBe('SUBMITTED');
  });

  it('is refused (422 monthClosed) in a closed month', async () => {
    await lockRow(db(), 'C1', 'M02_2027', 'submitter');
    await db().update(months).set({ open: false }).where(eq(months.monthId, 'M02_2027'));
    const res = await publish('submitter', [key('C1', 'M02_2027')]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('monthClosed');
  });
});
