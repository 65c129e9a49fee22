import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { CLUSTER_EDITOR_TEXTS, moduleSearchAllowed, parseRangeFacing } from '@bo/shared/cluster-editor';
import {
  buildClusterWorldApp,
  buildClusterWorldItems,
  CLUSTER_WORLD_USERS,
  type ClusterWorld,
  type ClusterWorldUser,
} from '../../../test/cluster-test-app.js';
import { buildModule, buildSku } from '../../../test/builders.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { clusters, modules, moduleSkus, skus } from '../../db/schema.js';

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
const db = () => app.database.db;
const C1 = { clusterId: 'C1', monthId: 'M01_2027' };

describe('POST /api/cluster/rangeFacingDto', () => {
  it('answers the stored range facing of the clusters the caller may view', async () => {
    await db().update(clusters).set({ rangeFacing: '3-12' }).where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M01_2027')));
    const res = await post('editor', '/api/cluster/rangeFacingDto', [C1, { clusterId: 'C2', monthId: 'M01_2027' }, { clusterId: 'CUS', monthId: 'M01_2027' }, { clusterId: 'NOPE', monthId: 'M01_2027' }]);
    expect(res.statusCode).toBe(200);
    // CUS is in the NA zone (editor holds EU only), NOPE does not exist.
    expect(res.json()).toEqual([
      { clusterId: 'C1', monthId: 'M01_2027', rangeFacing: '3-12' },
      { clusterId: 'C2', monthId: 'M01_2027', rangeFacing: null },
    ]);
  });

  it('validates the body and needs a session', async () => {
    expect((await post('editor', '/api/cluster/rangeFacingDto', [])).statusCode).toBe(400);
    expect((await post('editor', '/api/cluster/rangeFacingDto', [{ clusterId: 'C1', monthId: 'bad' }])).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/cluster/rangeFacingDto', payload: [C1] })).statusCode).toBe(401);
  });

  it('parses min-max in the shared helper', () => {
    expect(parseRangeFacing('3-12')).toEqual({ min: 3, max: 12 });
    expect(parseRangeFacing(' 4 - 9 ')).toEqual({ min: 4, max: 9 });
    expect(parseRangeFacing('abc')).toBeNull();
    expect(parseRangeFacing(null)).toBeNull();
  });
});

describe('POST /api/cluster/clusterPercentage', () => {
  it('counts the active SKUs of the ADDED modules of the body (unsaved edits count)', async () => {
    const res = await post('editor', '/api/cluster/clusterPercentage', [
      { ...C1, modules: [{ moduleName: 'A1', clusterCompositionStatus: 'ADDED' }, { moduleName: 'A2', clusterCompositionStatus: 'ADDED' }, { moduleName: 'A3', clusterCompositionStatus: 'REMOVED' }] },
    ]);
    expect(res.statusCode).toBe(200);
    const [c] = res.json().clusterDtoList;
    // A1: s1, s2; A2: s2 (s3 is REMOVED in the module): distinct s1, s2.
    expect(c).toMatchObject({ clusterId: 'C1', monthId: 'M01_2027', totalSku: 2, totalMh: 2, percentageRefresh: null, previousMonthId: null });
    expect(c.modules).toEqual([
      { moduleName: 'A1', totalSku: 2, totalMh: 2 },
      { moduleName: 'A2', totalSku: 1, totalMh: 1 },
    ]);
    const onlyA2 = await post('editor', '/api/cluster/clusterPercentage', [{ ...C1, modules: [{ moduleName: 'A2', clusterCompositionStatus: 'ADDED' }] }]);
    expect(onlyA2.json().clusterDtoList[0].totalSku).toBe(1);
  });

  it('refresh = share of active SKUs the previous version of the cluster did not carry, whole percent', async () => {
    const [a1Feb] = await db().select().from(modules).where(and(eq(modules.moduleName, 'A1'), eq(modules.monthId, 'M02_2027')));
    const s4 = await buildSku(db());
    const s5 = await buildSku(db());
    await db().insert(moduleSkus).values([
      { moduleId: a1Feb!.id, upc: world.skus.s1.upc, mustHave: true, status: 'ADDED' },
      { moduleId: a1Feb!.id, upc: s4.upc, mustHave: false, status: 'ADDED' },
      { moduleId: a1Feb!.id, upc: s5.upc, mustHave: false, status: 'NEW' },
    ]);
    const res = await post('editor', '/api/cluster/clusterPercentage', [
      { clusterId: 'C1', monthId: 'M02_2027', modules: [{ moduleName: 'A1', clusterCompositionStatus: 'ADDED' }] },
    ]);
    const [c] = res.json().clusterDtoList;
    // Now s1, s4, s5; January's C1 carried s1, s2: two of three are new → 67 %.
    expect(c).toMatchObject({ totalSku: 3, totalMh: 1, percentageRefresh: 67, previousMonthId: 'M01_2027' });
    const empty = await post('editor', '/api/cluster/clusterPercentage', [{ clusterId: 'C1', monthId: 'M02_2027', modules: [] }]);
    expect(empty.json().clusterDtoList[0]).toMatchObject({ totalSku: 0, percentageRefresh: 0 });
  });

  it('leaves out clusters the caller may not view and validates statuses', async () => {
    const res = await post('editor', '/api/cluster/clusterPercentage', [{ clusterId: 'CUS', monthId: 'M01_2027', modules: [] }]);
    expect(res.json().clusterDtoList).toEqual([]);
    const bad = await post('editor', '/api/cluster/clusterPercentage', [{ ...C1, modules: [{ moduleName: 'A1', clusterCompositionStatus: 'NEW' }] }]);
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /api/cluster/moduleSearch', () => {
  const search = (user: ClusterWorldUser, body: Record<string, unknown>) => post(user, '/api/cluster/moduleSearch', { monthId: ['M01_2027'], ...body });

  it('needs a country, a family or more than 4 characters of text', async () => {
    const vague = await search('editor', { moduleLabel: ['A1 l'] });
    expect(vague.statusCode).toBe(400);
    expect(vague.json()).toMatchObject({ error: 'searchTooVague', message: CLUSTER_EDITOR_TEXTS.searchTooVague });
    expect((await search('editor', { brand: ['AUR'] })).statusCode).toBe(400);
    expect(moduleSearchAllowed({ moduleLabel: ['abcde'] })).toBe(true);
    expect(moduleSearchAllowed({ moduleLabel: ['abcd'] })).toBe(false);
    expect(moduleSearchAllowed({ country: ['IT'] })).toBe(true);
    expect(moduleSearchAllowed({ macroFamily: ['PILOT'] })).toBe(true);
  });

  it('limits the label text to 50 characters and needs one month', async () => {
    expect((await search('editor', { moduleLabel: ['x'.repeat(51)] })).statusCode).toBe(400);
    expect((await post('editor', '/api/cluster/moduleSearch', { country: ['IT'] })).statusCode).toBe(400);
  });

  it('finds live modules of the month by text (case-insensitive, literal), brand, family and country', async () => {
    const byText = await search('editor', { moduleLabel: ['a1 LABEL'] });
    expect(byText.statusCode).toBe(200);
    expect(byText.json().map((m: { moduleName: string }) => m.moduleName)).toEqual(['A1']);
    expect(byText.json()[0]).toMatchObject({ moduleLabel: 'A1 label', brand: 'AUR', collection: 'SUN', macroFamily: 'PILOT', status: 'SUBMITTED', starZones: ['EU'], totalSku: 2, length: 2, elLength: 0 });

    const byFamily = await search('editor', { macroFamily: ['ROUND'] });
    expect(byFamily.json().map((m: { moduleName: string }) => m.moduleName)).toEqual(['A2']);

    // Country IT → zone EU; the deleted D1 and the VLT module the editor may not see are left out.
    const byCountry = await search('editor', { country: ['IT'] });
    expect(byCountry.json().map((m: { moduleName: string }) => m.moduleName).sort()).toEqual(['A1', 'A2', 'A3', 'W1']);
    const asAdmin = await search('admin', { country: ['IT'] });
    expect(asAdmin.json().map((m: { moduleName: string }) => m.moduleName).sort()).toEqual(['A1', 'A2', 'A3', 'V1', 'W1']);
    const brandFiltered = await search('admin', { country: ['IT'], brand: ['VLT'] });
    expect(brandFiltered.json().map((m: { moduleName: string }) => m.moduleName)).toEqual(['V1']);
    const us = await search('admin', { country: ['US'] });
    expect(us.json()).toEqual([]);

    // % and _ are searched literally.
    expect((await search('admin', { moduleLabel: ['%%%%%'] })).json()).toEqual([]);
  });

  it('answers 413 past MAX_SEARCH_RESULTS', async () => {
    await app.close();
    // The same world on a plain app whose searches stop at 2 results.
    const test = await buildTestApp({ config: { MAX_SEARCH_RESULTS: 2 }, reference: true, users: CLUSTER_WORLD_USERS });
    await buildClusterWorldItems(test.db);
    ({ app, as } = test);
    const res = await search('admin', { country: ['IT'] });
    expect(res.statusCode).toBe(413);
  });
});

describe('POST /api/cluster/discontinuedModules', () => {
  it('lists the ADDED modules of the clusters holding active discontinued SKUs', async () => {
    await db().update(skus).set({ flagDisco: true }).where(eq(skus.upc, world.skus.s2.upc));
    // s3 is REMOVED in A2: flagging it changes nothing.
    await db().update(skus).set({ flagDisco: true }).where(eq(skus.upc, world.skus.s3.upc));
    const res = await post('editor', '/api/cluster/discontinuedModules', [C1, { clusterId: 'C3', monthId: 'M01_2027' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { moduleName: 'A1', moduleLabel: 'A1 label', monthId: 'M01_2027', macroFamily: 'PILOT', discoSkuCount: 1, clusterIds: ['C1', 'C3'] },
      { moduleName: 'A2', moduleLabel: 'A2 label', monthId: 'M01_2027', macroFamily: 'ROUND', discoSkuCount: 1, clusterIds: ['C1'] },
    ]);
  });

  it('is empty without discontinued SKUs', async () => {
    expect((await post('editor', '/api/cluster/discontinuedModules', [C1])).json()).toEqual([]);
  });
});

describe('GET /api/cluster/classificationOptions and POST /api/cluster/moduleComposition', () => {
  it('lists every classification by label', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/cluster/classificationOptions', headers: await as('viewer') });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: { classificationLabel: string }) => c.classificationLabel)).toEqual(['TOP_10', 'VIP']);
  });

  it("answers a module's active SKUs, MH first; 404 unknown, 403 not viewable", async () => {
    const res = await post('viewer', '/api/cluster/moduleComposition', { moduleName: 'A2', monthId: 'M01_2027' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ moduleName: 'A2', macroFamily: 'ROUND', skus: [{ upc: world.skus.s2.upc, mustHave: true, flagDisco: false }] });
    expect((await post('viewer', '/api/cluster/moduleComposition', { moduleName: 'ZZ', monthId: 'M01_2027' })).statusCode).toBe(404);
    expect((await post('naeditor', '/api/cluster/moduleComposition', { moduleName: 'A1', monthId: 'M01_2027' })).statusCode).toBe(403);
  });
});

describe('buildModule helper sanity', () => {
  it('a new module is found by the search at once', async () => {
    await buildModule(db(), { moduleName: 'NEWONE', macroFamily: 'ROUND' });
    const res = await post('editor', '/api/cluster/moduleSearch', { monthId: ['M01_2027'], moduleLabel: ['NEWONE'] });
    expect(res.json().map((m: { moduleName: string }) => m.moduleName)).toEqual(['NEWONE']);
  });
});
