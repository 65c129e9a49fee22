/**
 * The rules on which modules and clusters had drifted apart (docs/LIFECYCLE.md, "One rule for both kinds"):
 * both kinds now answer the same, the stricter way, because both go through the one lifecycle core.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { AUR_EU, buildCluster, buildModule } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { clusters, deletionRequests, locks, modules, releases } from '../../db/schema.js';

const bothEu = { brands: ['AUR', 'VLT'], zones: ['EU'] };
const USERS = {
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  holder: { grants: { view: bothEu, edit: bothEu } },
  creator: { role: 'CREATOR', grants: { view: AUR_EU, edit: AUR_EU } },
  creatorsub: { role: 'CREATOR', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
} as const satisfies TestUsers;

let app: FastifyInstance;
let as: TestApp<keyof typeof USERS>['as'];

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: USERS });
  ({ app, as } = test);
  for (const monthId of ['M01_2027', 'M12_2026']) {
    await buildModule(test.db, { moduleName: 'MOD_A', monthId });
    await buildCluster(test.db, { clusterId: 'CL_A', monthId });
  }
  await buildModule(test.db, { moduleName: 'MOD_V', brandCode: 'VLT' });
  await buildCluster(test.db, { clusterId: 'CL_V', brandCode: 'VLT' });
});
afterEach(async () => {
  await app.close();
});

const post = async (user: keyof typeof USERS, url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: await as(user), payload: payload as object });

const kinds = [
  { kind: 'module', key: 'moduleName', a: 'MOD_A', v: 'MOD_V' },
  { kind: 'cluster', key: 'clusterId', a: 'CL_A', v: 'CL_V' },
] as const;

describe.each(kinds)('$kind lock and unlock', ({ kind, key, a, v }) => {
  const item = (name: string, monthId = 'M01_2027') => ({ [key]: name, monthId });

  it('is read-only (acquired: false, no lock taken) in a closed month', async () => {
    const res = await post('editor', `/api/${kind}/lock`, [item(a, 'M12_2026')]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ ...item(a, 'M12_2026'), locked: false, userLock: null, acquired: false }]);
    expect(await app.database.db.select().from(locks)).toHaveLength(0);
  });

  it('is read-only (acquired: false, no lock taken) in a closed release', async () => {
    await app.database.db.update(releases).set({ status: 'CLOSED' }).where(eq(releases.releaseId, 'R2027'));
    const res = await post('editor', `/api/${kind}/lock`, [item(a)]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ ...item(a), locked: false, userLock: null, acquired: false }]);
    expect(await app.database.db.select().from(locks)).toHaveLength(0);
  });

  it('forced unlock of several items, one not allowed: 403 and none released', async () => {
    const taken = await post('holder', `/api/${kind}/lock`, [item(a), item(v)]);
    expect(taken.json().every((r: { acquired: boolean }) => r.acquired)).toBe(true);
    const res = await post('editor', `/api/${kind}/unlock?forced=true`, [item(a), item(v)]);
    expect(res.statusCode).toBe(403);
    const left = await app.database.db.select().from(locks);
    expect(left.map((l) => l.itemKey).sort()).toEqual([a, v].sort());
  });

  it('forced unlock of items all allowed releases them', async () => {
    await post('holder', `/api/${kind}/lock`, [item(a)]);
    const res = await post('editor', `/api/${kind}/unlock?forced=true`, [item(a)]);
    expect(res.statusCode).toBe(200);
    expect(await app.database.db.select().from(locks)).toHaveLength(0);
  });
});

describe.each(kinds)('$kind copy (one copy job for both kinds)', ({ kind, key, a }) => {
  const table = kind === 'module' ? modules : clusters;
  const keyColumn = kind === 'module' ? modules.moduleName : clusters.clusterId;
  const copy = (destinationMonthList: string[]) =>
    post('creator', `/api/${kind}/copyCompositions`, { [`${kind}s`]: [{ [key]: a, monthId: 'M01_2027', destinationMonthList }], toPublish: false });
  const rowIn = async (monthId: string) =>
    (await app.database.db.select().from(table).where(eq(keyColumn, a))).find((r) => r.monthId === monthId);

  it('refuses a copy onto the source month itself with 400 and copies nothing', async () => {
    const res = await copy(['M01_2027', 'M02_2027']);
    expect(res.statusCode).toBe(400);
    expect(await rowIn('M02_2027')).toBeUndefined();
  });

  it('creates the item again over a fully deleted one in the destination month', async () => {
    if (kind === 'module') await buildModule(app.database.db, { moduleName: a, monthId: 'M02_2027' });
    else await buildCluster(app.database.db, { clusterId: a, monthId: 'M02_2027' });
    await app.database.db.update(table).set({ deletionStatus: 'DELETED' }).where(eq(keyColumn, a));
    await app.database.db.update(table).set({ deletionStatus: null }).where(eq(table.monthId, 'M01_2027'));
    const res = await copy(['M02_2027']);
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([]);
    const row = (await rowIn('M02_2027'))!;
    expect(row.deletionStatus).toBeNull();
    expect(row.createdAfterDelete).toBe(true);
    expect(row.status).toBe('WIP');
  });

  it('marks a copy into a month its deletion request covers as created after delete, as item creation does', async () => {
    await app.database.db.insert(deletionRequests).values({ itemType: kind, itemKey: a, deleteFromMonthId: 'M02_2027', requestedBy: 'holder' });
    const res = await copy(['M02_2027']);
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([]);
    expect((await rowIn('M02_2027'))!.createdAfterDelete).toBe(true);
  });

  it('does not overwrite a destination the caller may not change (its zone is outside their grants)', async () => {
    if (kind === 'module') await buildModule(app.database.db, { moduleName: a, monthId: 'M02_2027', zones: ['NA'], moduleDescription: 'theirs' });
    else await buildCluster(app.database.db, { clusterId: a, monthId: 'M02_2027', countries: ['US'], zones: ['NA'], clusterDescription: 'theirs' });
    const res = await copy(['M02_2027']);
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([expect.objectContaining({ [key]: a, months: ['M02_2027'] })]);
    const row = (await rowIn('M02_2027'))! as { moduleDescription?: string | null; clusterDescription?: string | null };
    expect(row.moduleDescription ?? row.clusterDescription).toBe('theirs');
  });

  it('with toPublish, copies but does not submit what the planning system would refuse (an empty item)', async () => {
    const res = await post('creatorsub', `/api/${kind}/copyCompositions`, { [`${kind}s`]: [{ [key]: a, monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([{ [key]: a, months: ['M02_2027'], message: expect.stringMatching(/^Copied, but not published: The (module|cluster) has no/) }]);
    expect((await rowIn('M02_2027'))!.status).toBe('WIP');
  });
});
