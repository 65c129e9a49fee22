import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { clusterListItemSchema, macroFamilyGroupSchema, moduleListItemSchema } from '@bo/shared/search';
import { buildCluster, buildModule, buildSku, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { clusters, modules } from '../../db/schema.js';

/**
 * What a home row shows besides its name (docs/web-app.md "Home result rows"): a module's MH and EL
 * counts (SKUs in the bin not counted), doors, and who changed the item last and when; the same
 * last-change fields for clusters.
 */
let world: TestApp<'admin'>;
const EDITED_AT = new Date('2026-11-20T10:15:00.000Z');

beforeAll(async () => {
  world = await buildTestApp({ reference: true, users: { admin: { role: 'ADMIN' } } });
  const { db } = world;
  const [a, b, c, d] = [await buildSku(db), await buildSku(db), await buildSku(db), await buildSku(db)];
  const mod = await buildModule(db, {
    moduleName: 'AUR_SUN_COUNTED',
    skus: [
      { upc: a.upc, mustHave: true },
      { upc: b.upc, mustHave: true, status: 'NEW' },
      { upc: c.upc, mustHave: false },
      { upc: d.upc, mustHave: false, status: 'REMOVED' },
    ],
  });
  await db.update(modules).set({ door: 42, updatedBy: 'editor', updatedAt: EDITED_AT }).where(eq(modules.id, mod.id));
  await buildModule(db, { moduleName: 'AUR_SUN_EMPTY' });

  const store = await buildStore(db, 'IT');
  const cl = await buildCluster(db, { clusterId: 'CL_EDITED', storeJdas: [store.storeJda] });
  await db.update(clusters).set({ updatedBy: 'creator', updatedAt: EDITED_AT }).where(eq(clusters.id, cl.id));
});
afterAll(async () => {
  await world.app.close();
});

const post = async (url: string) => {
  const res = await world.app.inject({ method: 'POST', url, headers: await world.as('admin'), payload: { monthId: ['M01_2027'], brand: ['AUR'] } });
  expect(res.statusCode, url).toBe(200);
  return res.json() as unknown;
};

describe('home rows: counts, doors and last change', () => {
  it('gives each module its MH and EL counts without the bin, its doors and its last writer', async () => {
    const list = z.array(moduleListItemSchema).parse(await post('/api/module/filtered'));
    const counted = list.find((m) => m.moduleName === 'AUR_SUN_COUNTED');
    expect(counted).toMatchObject({ length: 2, elLength: 1, door: 42, updatedBy: 'editor', updatedAt: EDITED_AT.toISOString() });
    const empty = list.find((m) => m.moduleName === 'AUR_SUN_EMPTY');
    expect(empty).toMatchObject({ length: 0, elLength: 0 });
    expect(empty?.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('gives the grouped modules the same fields', async () => {
    const groups = z.array(macroFamilyGroupSchema).parse(await post('/api/module/macroFamily'));
    const counted = groups.flatMap((g) => g.moduleList).find((m) => m.moduleName === 'AUR_SUN_COUNTED');
    expect(counted).toMatchObject({ length: 2, elLength: 1, door: 42, updatedBy: 'editor', updatedAt: EDITED_AT.toISOString() });
  });

  it('gives each cluster its doors and its last writer', async () => {
    const list = z.array(clusterListItemSchema).parse(await post('/api/cluster/filtered'));
    expect(list.find((c) => c.clusterId === 'CL_EDITED')).toMatchObject({ door: 1, updatedBy: 'creator', updatedAt: EDITED_AT.toISOString() });
  });

  it('writes the lists as before the database wrote them: compact JSON, keys in the same order', async () => {
    const headers = await world.as('admin');
    const raw = async (url: string) => {
      const res = await world.app.inject({ method: 'POST', url, headers, payload: { monthId: ['M01_2027'], brand: ['AUR'] } });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toBe(JSON.stringify(JSON.parse(res.body)));
      return JSON.parse(res.body) as Record<string, unknown>[];
    };
    const moduleKeys = 'moduleName moduleLabel moduleDescription monthId macroFamily brand collection planningChannel starZones status newModule locked userLock legoMonth inOpenMonth releaseClosed door length elLength initialSize rpasErrors publicationDate updatedBy updatedAt';
    const modules = await raw('/api/module/filtered');
    expect(modules.length).toBeGreaterThan(0);
    for (const m of modules) expect(Object.keys(m).join(' ')).toBe(moduleKeys);
    const groups = await raw('/api/module/macroFamily');
    expect(groups.map((g) => Object.keys(g).join(' '))).toEqual(groups.map(() => 'macroFamily specialKind moduleList'));
    for (const m of groups.flatMap((g) => g.moduleList as Record<string, unknown>[])) expect(Object.keys(m).join(' ')).toBe(moduleKeys);
    const clusterKeys = 'clusterId clusterLabel clusterDescription monthId brandCode collection planningChannel country starZones status locked userLock legoMonth inOpenMonth releaseClosed rangeFacing door rpasErrors publicationDate updatedBy updatedAt';
    const clusterList = await raw('/api/cluster/filtered');
    expect(clusterList.length).toBeGreaterThan(0);
    for (const c of clusterList) expect(Object.keys(c).join(' ')).toBe(clusterKeys);
  });
});
