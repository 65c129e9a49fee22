import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { AUR_EU, buildCluster } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { auditLog, clientClassifications, clusterClassifications, clusters } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
const db = () => app.database.db;

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
  const [vip, top] = await db().insert(clientClassifications).values([{ classificationLabel: 'VIP' }, { classificationLabel: 'TOP_10' }]).returning();
  const c1 = await buildCluster(db(), { clusterId: 'C1' });
  const c2 = await buildCluster(db(), { clusterId: 'C2' });
  const gone = await buildCluster(db(), { clusterId: 'GONE' });
  await db().update(clusters).set({ deletionStatus: 'DELETED' }).where(eq(clusters.id, gone.id));
  await db().insert(clusterClassifications).values([
    { clusterPk: c1.id, classificationId: vip!.classificationId },
    { clusterPk: c2.id, classificationId: vip!.classificationId },
    { clusterPk: gone.id, classificationId: vip!.classificationId },
    { clusterPk: c1.id, classificationId: top!.classificationId },
  ]);
});
afterEach(async () => {
  await app.close();
});

const create = async (user: User, label?: string) =>
  app.inject({ method: 'POST', url: `/api/classification/create${label === undefined ? '' : `?classificationLabel=${encodeURIComponent(label)}`}`, headers: await as(user) });
const remove = async (user: User, id: number | string) =>
  app.inject({ method: 'DELETE', url: `/api/classification/delete?classificationId=${id}`, headers: await as(user) });
const list = async (user: User = 'viewer') => (await app.inject({ method: 'GET', url: '/api/classification/all', headers: await as(user) })).json();

describe('client classifications', () => {
  it('lists them by label with the live clusters that carry them', async () => {
    expect(await list()).toEqual([
      { classificationId: 2, classificationLabel: 'TOP_10', clusterCount: 1 },
      { classificationId: 1, classificationLabel: 'VIP', clusterCount: 2 },
    ]);
  });

  it('creates a label of A-Z, 0-9, _ and -, at most 15 characters, once', async () => {
    const res = await create('editor', 'TRAVEL-RETAIL_1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ classificationId: 3, classificationLabel: 'TRAVEL-RETAIL_1', clusterCount: 0 });
    expect((await list()).map((c: { classificationLabel: string }) => c.classificationLabel)).toEqual(['TOP_10', 'TRAVEL-RETAIL_1', 'VIP']);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.itemType, 'classification'));
    expect(entry).toMatchObject({ username: 'editor', action: 'create', itemKey: 'TRAVEL-RETAIL_1' });

    expect((await create('editor', 'VIP')).json()).toEqual({ error: 'classificationAlreadyExists', message: 'The client classification VIP already exists.' });
    expect((await create('editor', 'VIP')).statusCode).toBe(409);
  });

  it('answers the spec texts for bad labels', async () => {
    for (const bad of ['vip', 'VIP CLIENT', 'VIP!', 'VIP.1', 'ÀB']) {
      const res = await create('admin', bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toBe('Admitted characters: A-Z, 0-9, _, -');
    }
    for (const empty of [undefined, '', '   ']) {
      expect((await create('admin', empty)).json().message).toBe('Insert a valid client classification name');
    }
    expect((await create('admin', 'A'.repeat(16))).json().message).toBe('The client classification can have at most 15 characters');
    expect((await create('admin', 'A'.repeat(15))).statusCode).toBe(200);
  });

  it('deletes a classification and takes it off its clusters; audited', async () => {
    const res = await remove('editor', 1);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ classificationId: 1, classificationLabel: 'VIP', removedFromClusters: 2 });
    expect(await list()).toEqual([{ classificationId: 2, classificationLabel: 'TOP_10', clusterCount: 1 }]);
    expect(await db().select().from(clusterClassifications)).toHaveLength(1);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'delete'));
    expect(entry).toMatchObject({ itemType: 'classification', itemKey: 'VIP', summary: { classificationId: 1, removedFromClusters: 2 } });
    expect((await remove('editor', 1)).json()).toEqual({ error: 'classificationNotFound', message: 'The client classification does not exist.' });
    expect((await remove('editor', 'abc')).statusCode).toBe(400);
  });

  it('lets only admins and users with an edit grant create or delete', async () => {
    expect((await create('viewer', 'NEW')).statusCode).toBe(403);
    expect((await remove('viewer', 1)).statusCode).toBe(403);
    expect((await list()).length).toBe(2);
  });
});
