/**
 * Deleting a client classification that live clusters carry (docs/DECISIONS.md "Deleting a client
 * classification"): a change of each of those clusters, under the lifecycle core's rules; all or nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, inArray } from 'drizzle-orm';
import { IN_USE_NAMED_MAX } from '@bo/shared/classifications';
import type { HistoryPage } from '@bo/shared/item-versions';
import { AUR_EU, buildCluster, type ClusterSpec } from '../../../test/builders.js';
import { lockRow } from '../../../test/cluster-test-app.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import type { Db } from '../../db/client.js';
import { auditLog, clientClassifications, clusterClassifications, clusters, itemVersions } from '../../db/schema.js';

const AUR_VLT_EU = { brands: ['AUR', 'VLT'], zones: ['EU'] } as const;
const USERS = {
  admin: { role: 'ADMIN' },
  // Sees VLT, edits AUR only.
  editor: { grants: { view: AUR_VLT_EU, edit: AUR_EU } },
  // Sees and edits AUR only: VLT clusters are invisible to them.
  blind: { grants: { view: AUR_EU, edit: AUR_EU } },
  other: { grants: { view: AUR_EU, edit: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let db: Db;
let as: TestApp<User>['as'];
let vip: number;
let top: number;

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: USERS });
  ({ app, db, as } = test);
  const rows = await db.insert(clientClassifications).values([{ classificationLabel: 'VIP' }, { classificationLabel: 'TOP_10' }]).returning();
  vip = rows[0]!.classificationId;
  top = rows[1]!.classificationId;
});
afterEach(async () => {
  await app.close();
});

/** A cluster carrying these classifications from its first version (built in one transaction, as the app writes). */
async function carrier(spec: ClusterSpec, classificationIds: number[]) {
  return db.transaction(async (tx) => {
    const c = await buildCluster(tx as unknown as Db, spec);
    if (classificationIds.length) await tx.insert(clusterClassifications).values(classificationIds.map((classificationId) => ({ clusterPk: c.id, classificationId })));
    return c;
  });
}

const remove = async (user: User, id: number) => app.inject({ method: 'DELETE', url: `/api/classification/delete?classificationId=${id}`, headers: await as(user) });
const post = async (user: User, url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: await as(user) });
const get = async (user: User, url: string) => app.inject({ method: 'GET', url, headers: await as(user) });

/** What a refused delete must leave as it was: links, cluster versions, item versions, the row, the audit. */
async function snapshot() {
  const links = await db.select().from(clusterClassifications).orderBy(clusterClassifications.clusterPk, clusterClassifications.classificationId);
  const rows = await db.select({ id: clusters.id, version: clusters.version, status: clusters.status }).from(clusters).orderBy(clusters.id);
  const versions = await db.select({ key: itemVersions.itemKey, v: itemVersions.version }).from(itemVersions);
  const classifications = await db.select().from(clientClassifications).orderBy(clientClassifications.classificationId);
  const audits = await db.select({ id: auditLog.id }).from(auditLog).where(inArray(auditLog.itemType, ['cluster', 'classification']));
  return { links, rows, versions: versions.length, classifications, audits: audits.length };
}

const versionOf = async (id: number) => (await db.select({ version: clusters.version }).from(clusters).where(eq(clusters.id, id)))[0]!.version;

describe('DELETE /api/classification/delete of a classification that live clusters carry', () => {
  it('is refused (403 classificationInUse) when the caller may not edit a carrying cluster of another brand, naming it; nothing changes', async () => {
    await carrier({ clusterId: 'CA' }, [vip]);
    await carrier({ clusterId: 'CV', brandCode: 'VLT' }, [vip]);
    const before = await snapshot();

    const res = await remove('editor', vip);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'classificationInUse',
      message: 'The client classification VIP cannot be deleted: it is on clusters you may not change now; CV label (CV, 01/2027): You may not edit the cluster',
    });
    expect(await snapshot()).toEqual(before);

    // A caller who may not even see the cluster is told how many, not which.
    const blind = await remove('blind', vip);
    expect(blind.statusCode).toBe(403);
    expect(blind.json()).toEqual({
      error: 'classificationInUse',
      message: 'The client classification VIP cannot be deleted: it is on clusters you may not change now; 1 cluster you may not see',
    });
    expect(await snapshot()).toEqual(before);

    // An admin may change both.
    expect((await remove('admin', vip)).json()).toEqual({ classificationId: vip, classificationLabel: 'VIP', removedFromClusters: 2 });
  });

  it('takes it off a SUBMITTED cluster with the edit right alone (the rule of any cluster change), which stays SUBMITTED', async () => {
    const cs = await carrier({ clusterId: 'CS', status: 'SUBMITTED' }, [vip]);
    const v = await versionOf(cs.id);
    expect((await remove('editor', vip)).statusCode).toBe(200);
    const [row] = await db.select().from(clusters).where(eq(clusters.id, cs.id));
    // Classifications are not sent to the planning system: the cluster is not reopened (as in Massive Edit).
    expect(row).toMatchObject({ status: 'SUBMITTED', version: v + 1 });
    expect(await db.select().from(clusterClassifications)).toEqual([]);
  });

  it('is refused, for admins too, when a carrying cluster is in a closed month (history is not rewritten) or being submitted', async () => {
    await carrier({ clusterId: 'CA' }, [vip]);
    await carrier({ clusterId: 'OLD', monthId: 'M12_2026' }, [vip]);
    await carrier({ clusterId: 'SIP', status: 'SUBMIT_IN_PROGRESS' }, [vip]);
    const before = await snapshot();
    const res = await remove('admin', vip);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'classificationInUse',
      message:
        'The client classification VIP cannot be deleted: it is on clusters you may not change now; OLD label (OLD, 12/2026): The month 12/2026 is closed; ' +
        'SIP label (SIP, 01/2027): The cluster is being submitted to the planning system: it cannot be changed until the submission ends.',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('names at most IN_USE_NAMED_MAX refused clusters and counts the rest', async () => {
    for (let i = 10; i < 10 + IN_USE_NAMED_MAX + 2; i++) await carrier({ clusterId: `OLD${i}`, monthId: 'M12_2026' }, [vip]);
    const res = await remove('admin', vip);
    const lines = (res.json().message as string).split('; ');
    expect(lines).toHaveLength(1 + IN_USE_NAMED_MAX + 1);
    expect(lines[1]).toBe('OLD10 label (OLD10, 12/2026): The month 12/2026 is closed');
    expect(lines.at(-1)).toBe('and 2 more clusters you may not change');
  });

  it("is refused while another user holds a carrying cluster's lock; the caller's own lock does not stop it", async () => {
    await carrier({ clusterId: 'CA' }, [vip]);
    await lockRow(db, 'CA', 'M01_2027', 'other');
    const before = await snapshot();
    const res = await remove('editor', vip);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The client classification VIP cannot be deleted: it is on clusters you may not change now; CA label (CA, 01/2027): other is editing the cluster');
    expect(await snapshot()).toEqual(before);

    await post('other', '/api/cluster/unlock', [{ clusterId: 'CA', monthId: 'M01_2027' }]);
    await lockRow(db, 'CA', 'M01_2027', 'EDITOR');
    expect((await remove('editor', vip)).statusCode).toBe(200);
  });

  it('changes each carrying cluster in one transaction: a version (classificationDelete), an audit line and a version bump each; history shows it', async () => {
    const ca = await carrier({ clusterId: 'CA' }, [vip, top]);
    await carrier({ clusterId: 'CB', monthId: 'M02_2027' }, [vip]);
    const gone = await carrier({ clusterId: 'GONE' }, [vip]);
    await db.update(clusters).set({ deletionStatus: 'DELETED' }).where(eq(clusters.id, gone.id));
    const loaded = await versionOf(ca.id);

    const res = await remove('editor', vip);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ classificationId: vip, classificationLabel: 'VIP', removedFromClusters: 2 });
    expect(await db.select().from(clientClassifications)).toEqual([expect.objectContaining({ classificationLabel: 'TOP_10' })]);
    expect(await db.select({ pk: clusterClassifications.clusterPk, id: clusterClassifications.classificationId }).from(clusterClassifications)).toEqual([{ pk: ca.id, id: top }]);
    expect(await versionOf(ca.id)).toBe(loaded + 1);

    // One audit line per cluster (the change, as any cluster change), then the classification's own.
    const lines = await db.select().from(auditLog).where(inArray(auditLog.itemType, ['cluster', 'classification'])).orderBy(auditLog.id);
    expect(lines.map((l) => [l.action, l.itemType, l.itemKey, l.monthId])).toEqual([
      ['save', 'cluster', 'CA', 'M01_2027'],
      ['save', 'cluster', 'CB', 'M02_2027'],
      ['delete', 'classification', 'VIP', null],
    ]);
    expect(lines[0]!.summary).toMatchObject({
      version: loaded + 1,
      reopened: false,
      changes: ['Removed client classification VIP'],
      classificationDeleted: { classificationId: vip, classificationLabel: 'VIP' },
    });
    expect(lines[2]!.summary).toEqual({ classificationId: vip, removedFromClusters: 2 });

    // The history of each cluster shows the change, by whom.
    for (const [clusterId, monthId] of [
      ['CA', 'M01_2027'],
      ['CB', 'M02_2027'],
    ]) {
      const history = (await get('editor', `/api/cluster/history?clusterId=${clusterId}&monthId=${monthId}`)).json() as HistoryPage;
      expect(history.content[0]).toMatchObject({ version: 2, action: 'classificationDelete', user: 'editor', summary: '−1 classification' });
    }
    const v2 = (await get('editor', '/api/cluster/history/version/2?clusterId=CA&monthId=M01_2027')).json();
    expect(v2.content.classifications).toEqual([top]);

    // An editor that loaded the cluster before the delete is refused.
    await post('editor', '/api/cluster/lock', [{ clusterId: 'CA', monthId: 'M01_2027' }]);
    const stale = await post('editor', '/api/cluster/save', [{ clusterId: 'CA', monthId: 'M01_2027', clusterDescription: 'x', version: loaded }]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe('versionConflict');
  });

  it('a revert cannot give a cluster back a deleted classification: refused with its label; without it the revert is saved', async () => {
    const ca = await carrier({ clusterId: 'CA' }, [vip, top]);
    expect((await remove('editor', vip)).statusCode).toBe(200);
    await post('editor', '/api/cluster/lock', [{ clusterId: 'CA', monthId: 'M01_2027' }]);
    const back = [{ clusterId: 'CA', monthId: 'M01_2027', classifications: [{ classificationId: vip }, { classificationId: top }] }];
    const refused = await post('editor', '/api/cluster/save?revertOf=1', back);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'unknownClassification',
      message: 'The client classification VIP was deleted: a cluster can no longer carry it (leave it out and save again)',
    });
    expect(await versionOf(ca.id)).toBe(2);

    const without = await post('editor', '/api/cluster/save?revertOf=1', [{ clusterId: 'CA', monthId: 'M01_2027', classifications: [{ classificationId: top }] }]);
    expect(without.statusCode).toBe(200);
    const history = (await get('editor', '/api/cluster/history?clusterId=CA&monthId=M01_2027')).json() as HistoryPage;
    expect(history.content.map((e) => [e.version, e.action, e.revertOf])).toEqual([
      [3, 'revert', 1],
      [2, 'classificationDelete', null],
      [1, 'create', null],
    ]);
  });

  it('a classification no live cluster carries is deleted by anyone who may manage classifications, and no cluster changes', async () => {
    const gone = await carrier({ clusterId: 'GONE', monthId: 'M12_2026' }, [top]);
    await db.update(clusters).set({ deletionStatus: 'DELETED' }).where(eq(clusters.id, gone.id));
    const v = await versionOf(gone.id);
    expect((await remove('blind', top)).json()).toEqual({ classificationId: top, classificationLabel: 'TOP_10', removedFromClusters: 0 });
    expect(await versionOf(gone.id)).toBe(v);
  });
});
