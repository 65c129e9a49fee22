import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { buildClusterTestApp, buildClusterWorld, lockRow, withJobRunner } from '../../../test/cluster-test-app.js';
import { loginAs } from '../../../test/test-app.js';
import { findUserByUsername, loadGrants } from '../../auth/users.repository.js';
import { copyClusters } from './cluster-lifecycle.service.js';
import { auditLog, clusterModules, clusters, jobs, modules } from '../../db/schema.js';
import { copyResultLines, copySummary } from '@bo/shared/copy-results';
import { CLUSTER_TEXTS } from '@bo/shared/clusters';

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildClusterWorld>>;
const headers: Record<string, { authorization: string }> = {};

beforeEach(async () => {
  ({ app } = await buildClusterTestApp());
  world = await buildClusterWorld(app.database.db);
  for (const u of ['admin', 'editor', 'submitter', 'viewer', 'creator', 'creatorsub', 'pcreator']) headers[u] = await loginAs(app, u);
});
afterEach(async () => {
  await app.close();
});

const db = () => app.database.db;
const copy = (user: string, payload: unknown) =>
  withJobRunner(app, app.inject({ method: 'POST', url: '/api/cluster/copyCompositions', payload: payload as object, headers: headers[user] }));

async function clusterRow(clusterId: string, monthId: string) {
  const [row] = await db()
    .select()
    .from(clusters)
    .where(and(eq(clusters.clusterId, clusterId), eq(clusters.monthId, monthId)));
  return row;
}

async function details(user: string, clusterId: string, monthId: string) {
  const res = await app.inject({ method: 'POST', url: '/api/cluster/clusterDetails', payload: [{ clusterId, monthId }], headers: headers[user] });
  return res.json()[0];
}

describe('POST /api/cluster/copyCompositions', () => {
  it('creates the cluster in an open month with its stores, LIAs, classifications and the modules that exist there', async () => {
    await db()
      .delete(clusters)
      .where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M02_2027')));
    const res = await copy('creator', { clusters: [{ clusterId: 'C1', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: false });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.jobId).toEqual(expect.any(Number));
    expect(answer.completed).toBe(true);
    // A1 exists in M02_2027; A2 and A3 do not and are reported.
    expect(answer.errors).toEqual([{ clusterId: 'C1', months: ['M02_2027'], message: 'Modules not available in the month, not copied: A2, A3' }]);

    const copyDto = await details('editor', 'C1', 'M02_2027');
    const source = await details('editor', 'C1', 'M01_2027');
    expect(copyDto).toMatchObject({
      clusterLabel: source.clusterLabel,
      clusterDescription: 'First',
      brandCode: 'AUR',
      collection: 'SUN',
      country: ['IT'],
      starZones: ['EU'],
      status: 'WIP',
      stores: source.stores,
      lias: source.lias,
      classifications: source.classifications,
      door: 2,
    });
    expect(copyDto.modules.map((m: { moduleName: string; clusterCompositionStatus: string }) => [m.moduleName, m.clusterCompositionStatus])).toEqual([['A1', 'ADDED']]);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'copy'));
    expect(entry).toMatchObject({ username: 'creator', itemKey: 'C1', monthId: 'M02_2027', summary: { fromMonthId: 'M01_2027', created: true, droppedModules: ['A2', 'A3'] } });
    const [job] = await db().select().from(jobs).where(eq(jobs.id, answer.jobId));
    expect(job).toMatchObject({ kind: 'copy-cluster', status: 'DONE', progress: 100 });
  });

  it('overwrites an existing cluster (a SUBMITTED one becomes WIP) and reports nothing when all modules exist', async () => {
    await db().update(clusters).set({ clusterDescription: 'Source text' }).where(eq(clusters.id, world.c1.id));
    await db().delete(clusterModules).where(and(eq(clusterModules.clusterPk, world.c1.id), eq(clusterModules.moduleName, 'A2')));
    await db().delete(clusterModules).where(and(eq(clusterModules.clusterPk, world.c1.id), eq(clusterModules.moduleName, 'A3')));
    const before = await clusterRow('C1', 'M10_2027');
    expect(before!.status).toBe('SUBMITTED');
    const res = await copy('creator', { clusters: [{ clusterId: 'C1', monthId: 'M01_2027', destinationMonthList: ['M10_2027'] }], toPublish: false });
    expect(res.json().errors).toEqual([]);
    const after = await clusterRow('C1', 'M10_2027');
    expect(after).toMatchObject({ id: before!.id, status: 'WIP', clusterDescription: 'Source text', version: before!.version + 1 });
    const dto = await details('editor', 'C1', 'M10_2027');
    expect(dto.stores).toHaveLength(2);
    expect(dto.classifications.map((c: { classificationLabel: string }) => c.classificationLabel)).toEqual(['VIP']);
  });

  it('reports a closed destination, a destination locked by another user and one being submitted, and copies the rest', async () => {
    await lockRow(db(), 'C1', 'M02_2027', 'submitter');
    await db()
      .update(clusters)
      .set({ status: 'SUBMIT_IN_PROGRESS' })
      .where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M10_2027')));
    const res = await copy('creator', {
      clusters: [
        { clusterId: 'C1', monthId: 'M01_2027', destinationMonthList: ['M12_2026', 'M02_2027', 'M10_2027'] },
        { clusterId: 'C2', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] },
      ],
      toPublish: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([
      { clusterId: 'C1', months: ['M12_2026'], message: 'The month is closed' },
      { clusterId: 'C1', months: ['M02_2027'], message: 'The cluster is locked by submitter' },
      { clusterId: 'C1', months: ['M10_2027'], message: 'The submission of the cluster is in progress' },
      { clusterId: 'C2', months: ['M02_2027'], message: 'Modules not available in the month, not copied: A2' },
    ]);
    expect(await clusterRow('C1', 'M12_2026')).toBeUndefined();
    expect((await clusterRow('C2', 'M02_2027'))!.status).toBe('WIP');
  });

  it('with toPublish publishes the copies that succeeded', async () => {
    const res = await copy('creatorsub', {
      clusters: [{ clusterId: 'C3', monthId: 'M01_2027', destinationMonthList: ['M02_2027', 'M10_2027', 'M12_2026'] }],
      toPublish: true,
    });
    expect(res.json().errors).toEqual([{ clusterId: 'C3', months: ['M12_2026'], message: 'The month is closed' }]);
    // Issue 34 item 2: copied, published and failed counted per month.
    expect(res.json().outcome).toEqual({
      toPublish: true,
      counts: { copied: 2, published: 2, notPublished: 0, failed: 1 },
      copiedMonths: [{ itemKey: 'C3', months: ['M02_2027', 'M10_2027'] }],
      publishedMonths: [{ itemKey: 'C3', months: ['M02_2027', 'M10_2027'] }],
      notPublished: [],
      failed: [{ itemKey: 'C3', months: ['M12_2026'], message: 'The month is closed' }],
    });
    expect(copySummary(res.json().outcome)).toBe('Copied 2 · Published 2 · Not published 0 · Failed 1');
    await app.jobs.drain();
    expect((await clusterRow('C3', 'M02_2027'))!.status).toBe('SUBMITTED');
    expect((await clusterRow('C3', 'M10_2027'))!.status).toBe('SUBMITTED');
    const publishJobs = await db().select().from(jobs).where(eq(jobs.kind, 'publish'));
    expect(publishJobs).toHaveLength(1);
  });

  it('with toPublish but no submit grant copies and reports the publication as an error', async () => {
    const res = await copy('pcreator', { clusters: [{ clusterId: 'C3', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: true });
    expect(res.json().errors).toEqual([{ clusterId: 'C3', months: ['M02_2027'], message: 'Copied, but you are not allowed to publish the cluster' }]);
    expect((await clusterRow('C3', 'M02_2027'))!.status).toBe('WIP');
    expect(await db().select().from(jobs).where(eq(jobs.kind, 'publish'))).toHaveLength(0);
  });

  it('with toPublish does not publish a copy whose modules are WIP', async () => {
    await db().update(modules).set({ status: 'WIP' }).where(and(eq(modules.moduleName, 'A1'), eq(modules.monthId, 'M02_2027')));
    const res = await copy('creatorsub', { clusters: [{ clusterId: 'C3', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: true });
    expect(res.json().errors[0]).toMatchObject({ clusterId: 'C3', months: ['M02_2027'] });
    expect(res.json().errors[0].message).toContain('modules in work in progress');
    // Copied, not published: counted as such, not as a failure.
    expect(res.json().outcome).toMatchObject({ counts: { copied: 1, published: 0, notPublished: 1, failed: 0 }, publishedMonths: [], failed: [] });
    expect(res.json().outcome.notPublished).toEqual([{ itemKey: 'C3', months: ['M02_2027'], message: CLUSTER_TEXTS.modulesInWip }]);
    expect(copySummary(res.json().outcome)).toBe('Copied 1 · Published 0 · Not published 1 · Failed 0');
    expect(copyResultLines('cluster', res.json().outcome).map((l) => l.tone)).toEqual(['success', 'warning']);
  });

  it('creates the cluster again in a month where it was deleted', async () => {
    await db()
      .update(clusters)
      .set({ deletionStatus: 'DELETED' })
      .where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M02_2027')));
    await copy('creator', { clusters: [{ clusterId: 'C1', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: false });
    expect(await clusterRow('C1', 'M02_2027')).toMatchObject({ deletionStatus: null, createdAfterDelete: true, status: 'WIP' });

    await db()
      .update(clusters)
      .set({ deletionStatus: 'DELETION_PENDING' })
      .where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M10_2027')));
    const res = await copy('creator', { clusters: [{ clusterId: 'C1', monthId: 'M01_2027', destinationMonthList: ['M10_2027'] }], toPublish: false });
    expect(res.json().errors).toEqual([{ clusterId: 'C1', months: ['M10_2027'], message: 'The cluster is being deleted in that month' }]);
  });

  it('needs a copy right on the source (403), a known source (404) and a sensible body (400)', async () => {
    const one = (over: object) => ({ clusters: [{ clusterId: 'C1', monthId: 'M01_2027', destinationMonthList: ['M02_2027'], ...over }], toPublish: false });
    expect((await copy('viewer', one({}))).statusCode).toBe(403);
    // Copy is for admins and creators (part 2 §6: "others get COPY disabled"); Save & Publish needs submit.
    expect((await copy('editor', one({}))).statusCode).toBe(403);
    expect((await copy('submitter', one({}))).statusCode).toBe(403);
    expect((await copy('creator', { ...one({}), toPublish: true })).statusCode).toBe(403);
    expect((await copy('creator', one({ clusterId: 'NOPE' }))).statusCode).toBe(404);
    expect((await copy('creator', one({ destinationMonthList: [] }))).statusCode).toBe(400);
    expect((await copy('creator', one({ destinationMonthList: ['M01_2027'] }))).statusCode).toBe(400);
    expect(await db().select().from(jobs)).toHaveLength(0);
  });

  it('answers with the job id only (completed: false) when the job has not finished within the wait', async () => {
    const user = (await findUserByUsername(db(), 'creator'))!;
    const ctx = {
      db: db(),
      config: app.config,
      jobs: app.jobs,
      requestId: 'test',
      user: { userId: user.userId, username: user.username, email: user.email, firstName: '', lastName: '', role: user.role, grants: await loadGrants(db(), user) },
    };
    const answer = await copyClusters(ctx, { clusters: [{ clusterId: 'C3', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: false }, 30);
    expect(answer).toEqual({ errors: [], jobId: expect.any(Number), completed: false });
    await app.jobs.drain();
    const [job] = await db().select().from(jobs).where(eq(jobs.id, answer.jobId));
    expect(job!.status).toBe('DONE');
    expect((job!.result as { errors: unknown[] }).errors).toEqual([]);
    expect(job!.response).toBe('Copied cluster C3 for the months: 02/2027');
  });

  it('resumes from its checkpoint: months done before an interruption are not copied again', async () => {
    const payload = { items: [{ itemKey: 'C3', monthId: 'M01_2027', destinationMonthList: ['M02_2027', 'M10_2027'] }], toPublish: false };
    const [job] = await db()
      .insert(jobs)
      .values({
        kind: 'copy-cluster',
        payload,
        createdBy: 'editor',
        result: { checkpoint: { step: 1, errors: [], copied: [{ itemKey: 'C3', monthId: 'M02_2027' }], published: false, publishJobId: null } },
      })
      .returning();
    await app.jobs.drain();
    expect(await clusterRow('C3', 'M02_2027')).toBeUndefined();
    expect((await clusterRow('C3', 'M10_2027'))!.status).toBe('WIP');
    const [done] = await db().select().from(jobs).where(eq(jobs.id, job!.id));
    expect(done!.result).toMatchObject({ errors: [], copied: [{ clusterId: 'C3', months: ['M02_2027', 'M10_2027'] }], publishJobId: null, outcome: { counts: { copied: 2, published: 0, notPublished: 0, failed: 0 } } });
  });
});
