import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUR_EU, buildCluster, buildModule, buildSku } from '../../../test/builders.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { clusters, modules } from '../../db/schema.js';

/**
 * No double submits (issue 13): a save that carries the version its editor loaded is refused (409
 * versionConflict, nothing written) once the item has moved past that version; without a version the
 * spec's calls work as before.
 */
const planner = { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } } as const;
let t: TestApp<'anna'>;
let upcs: string[];

const moduleKey = { moduleName: 'MOD_V', monthId: 'M01_2027' };
const clusterKey = { clusterId: 'CL_V', monthId: 'M01_2027' };

beforeEach(async () => {
  t = await buildTestApp({ reference: true, users: { anna: planner } });
  upcs = [(await buildSku(t.db)).upc, (await buildSku(t.db)).upc];
  await buildModule(t.db, { ...moduleKey, skus: [{ upc: upcs[0]! }] });
  await buildModule(t.db, { moduleName: 'MOD_SUBMITTED', status: 'SUBMITTED', skus: [{ upc: upcs[0]! }] });
  await buildCluster(t.db, { ...clusterKey, modules: [{ moduleName: 'MOD_SUBMITTED' }] });
});
afterEach(async () => {
  await t.app.close();
});

const post = async (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: await t.as('anna'), payload: payload as object });
const moduleVersion = async () => (await t.db.select({ v: modules.version }).from(modules).where(and(eq(modules.moduleName, 'MOD_V'), eq(modules.monthId, 'M01_2027'))))[0]!.v;
const clusterVersion = async () => (await t.db.select({ v: clusters.version }).from(clusters).where(eq(clusters.clusterId, 'CL_V')))[0]!.v;

describe('module save with the version the editor loaded', () => {
  beforeEach(async () => {
    await post('/api/module/lock', [moduleKey]);
  });

  const body = (version: number | undefined, upc: string) => ({
    ...moduleKey,
    version,
    productDtoList: [{ upc, mustHave: true, moduleCompositionStatus: 'ADDED' }],
  });

  it('the editor gets the version with the module and after each save', async () => {
    const [loaded] = (await post('/api/module/details', [moduleKey])).json();
    expect(loaded.version).toBe(await moduleVersion());
    const saved = await post('/api/module/save', body(loaded.version, upcs[1]!));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().version).toBe(loaded.version + 1);
  });

  it('the same save sent twice: the second is 409 versionConflict, naming the module, and the version went up by one only', async () => {
    const before = await moduleVersion();
    const first = await post('/api/module/save', body(before, upcs[1]!));
    expect(first.statusCode).toBe(200);
    const second = await post('/api/module/save', body(before, upcs[0]!));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'versionConflict',
      message: `The module MOD_V was changed since you opened it (version ${before}): reload it before saving again.`,
    });
    expect(await moduleVersion()).toBe(before + 1);
    const [now] = (await post('/api/module/details', [moduleKey])).json();
    expect(now.productDtoList.map((p: { upc: string }) => p.upc)).toEqual([upcs[1]]);
  });

  it('saveList with a stale version saves nothing and says why', async () => {
    const before = await moduleVersion();
    await post('/api/module/save', body(before, upcs[1]!));
    const res = await post('/api/module/saveList', [body(before, upcs[0]!)]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([`MOD_V (M01_2027): The module MOD_V was changed since you opened it (version ${before}): reload it before saving again.`]);
    expect(await moduleVersion()).toBe(before + 1);
  });

  it('publish carrying the composition and a stale version is 409 and the module stays WIP', async () => {
    const before = await moduleVersion();
    await post('/api/module/save', body(before, upcs[1]!));
    const res = await post('/api/module/publish', body(before, upcs[0]!));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('versionConflict');
    const [row] = await t.db.select().from(modules).where(eq(modules.moduleName, 'MOD_V'));
    expect([row!.status, row!.version]).toEqual(['WIP', before + 1]);
  });

  it('without a version the save works as the spec calls it, every time', async () => {
    const before = await moduleVersion();
    expect((await post('/api/module/save', body(undefined, upcs[1]!))).statusCode).toBe(200);
    expect((await post('/api/module/save', body(undefined, upcs[0]!))).statusCode).toBe(200);
    expect(await moduleVersion()).toBe(before + 2);
  });
});

describe('cluster save and publish with the version the editor loaded', () => {
  beforeEach(async () => {
    await post('/api/cluster/lock', [clusterKey]);
  });

  const body = (version: number | undefined, description: string) => ({ ...clusterKey, version, clusterDescription: description });

  it('the same save sent twice: the second is 409 versionConflict, naming the cluster, and the version went up by one only', async () => {
    const [loaded] = (await post('/api/cluster/clusterDetails', [clusterKey])).json();
    const before = await clusterVersion();
    expect(loaded.version).toBe(before);
    const first = await post('/api/cluster/save', [body(before, 'first')]);
    expect(first.statusCode).toBe(200);
    expect(first.json().clusterDtoList[0].version).toBe(before + 1);
    const second = await post('/api/cluster/save', [body(before, 'second')]);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'versionConflict',
      message: `The cluster CL_V was changed since you opened it (version ${before}): reload it before saving again.`,
    });
    expect(await clusterVersion()).toBe(before + 1);
    const [row] = await t.db.select().from(clusters).where(eq(clusters.clusterId, 'CL_V'));
    expect(row!.clusterDescription).toBe('first');
  });

  it('publish with a stale version is 409: nothing saved, nothing published', async () => {
    const before = await clusterVersion();
    await post('/api/cluster/save', [body(before, 'first')]);
    const res = await post('/api/cluster/publish', [body(before, 'second')]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('versionConflict');
    const [row] = await t.db.select().from(clusters).where(eq(clusters.clusterId, 'CL_V'));
    expect([row!.status, row!.clusterDescription, row!.version]).toEqual(['WIP', 'first', before + 1]);
  });

  it('without a version the save works as the spec calls it, every time', async () => {
    const before = await clusterVersion();
    expect((await post('/api/cluster/save', [body(undefined, 'one')])).statusCode).toBe(200);
    expect((await post('/api/cluster/save', [body(undefined, 'two')])).statusCode).toBe(200);
    expect(await clusterVersion()).toBe(before + 2);
  });
});
