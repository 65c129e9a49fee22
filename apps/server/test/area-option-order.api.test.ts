/**
 * The Pending Area and the Discontinuation / Removed Area list a filter's options in one order
 * (lib/area-lists.ts: case-insensitive, then by code point; not Node's locale): the same brands come
 * back alike from both. 'Éclat' sorts after 'Fox' by code point, before it by the locale.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BELL_USERS, useAreaApp } from './area-test-app.js';
import { buildModule, buildSku } from './builders.js';
import { brands, modules } from '../src/db/schema.js';

const { start, app, db: database, as } = useAreaApp(BELL_USERS);

describe('the filter options of the list areas', () => {
  it('come in the same order in the Pending Area and the Discontinuation Area, by code point', async () => {
    await start();
    const db = database();
    await db.update(brands).set({ description: 'Éclat' }).where(eq(brands.brandCode, 'AUR'));
    await db.update(brands).set({ description: 'Fox' }).where(eq(brands.brandCode, 'VLT'));
    for (const brandCode of ['AUR', 'VLT']) {
      const sku = await buildSku(db, { flagDisco: true, brandCode });
      const module = await buildModule(db, { moduleName: `M_${brandCode}`, brandCode, skus: [{ upc: sku.upc }] });
      await db.update(modules).set({ rpasErrors: 'Price missing' }).where(eq(modules.id, module.id));
    }
    const headers = await as('admin');
    const pending = await app().inject({ method: 'POST', url: '/api/cluster/pendingAreaInitialFilters', headers, payload: { viewType: 'module' } });
    const disco = await app().inject({ method: 'GET', url: '/api/sku/skuDiscoInfoFilters', headers });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(disco.statusCode, disco.body).toBe(200);

    const pendingBrands = pending.json().brandCode as { value: string; label: string }[];
    expect(pendingBrands).toEqual([
      { value: 'VLT', label: 'Fox' },
      { value: 'AUR', label: 'Éclat' },
    ]);
    expect(disco.json().brandCode).toEqual(pendingBrands);
  });
});
