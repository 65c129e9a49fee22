/**
 * The home search's list answers kept while the database has not changed (lib/snapshot-cache.ts): a second
 * identical search is answered from memory, and any change — through the product, in plain SQL, a lock
 * that lapses with time alone — is in the next answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { AUR_EU, buildModule } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import type { Config } from '../../config.js';
import { locks, modules } from '../../db/schema.js';
import { currentSnapshot } from '../../lib/snapshot-cache.js';

const USERS = {
  admin: { role: 'ADMIN' },
  eu: { grants: { view: AUR_EU, edit: AUR_EU } },
  na: { grants: { view: { brands: ['AUR'], zones: ['NA'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
const db = () => app.database.db;
const M01 = { monthId: ['M01_2027'] };

async function buildWorld(config: Partial<Config> = {}) {
  ({ app, as } = await buildTestApp({ config, reference: true, users: USERS }));
  await buildModule(db(), { moduleName: 'AUR_EU_01' });
  await buildModule(db(), { moduleName: 'AUR_EU_02' });
  await buildModule(db(), { moduleName: 'AUR_NA_01', zones: ['NA'] });
  // Every user's token before any counting: a login writes (its audit entry).
  for (const user of Object.keys(USERS) as User[]) await as(user);
}

afterEach(async () => {
  await app.close();
});

const search = async (user: User, url = '/api/module/filtered', filters: object = M01) => {
  const res = await app.inject({ method: 'POST', url, headers: await as(user), payload: filters });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};
const items = async (user: User) => (JSON.parse(await search(user)) as { moduleName: string; moduleLabel: string; locked: boolean; userLock: string | null }[]);
const counts = () => ({ ...app.searchAnswers.counts });

describe('search answers kept while the database has not changed', () => {
  beforeEach(async () => {
    await buildWorld();
  });

  it('answers the same search again from memory, per route, filters and visibility', async () => {
    const first = await search('eu');
    const before = counts();
    expect(await search('eu')).toBe(first);
    expect(counts()).toEqual({ kept: before.kept + 1, computed: before.computed });

    // Another route, other filters, another visibility: each its own answer.
    const families = await search('eu', '/api/module/macroFamily');
    expect(JSON.parse(families)[0]).toHaveProperty('moduleList');
    const na = await search('na');
    expect(JSON.parse(na).map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_NA_01']);
    expect(JSON.parse(first).map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_EU_01', 'AUR_EU_02']);
    const named = await search('eu', '/api/module/filtered', { ...M01, moduleLabel: ['02'] });
    expect(JSON.parse(named)).toHaveLength(1);
    const clusters = await search('eu', '/api/cluster/filtered');
    expect(JSON.parse(clusters)).toEqual([]);
    expect(counts().computed).toBe(before.computed + 4);
    // …and each of them kept too.
    expect(await search('na')).toBe(na);
    expect(await search('eu', '/api/module/macroFamily')).toBe(families);
    expect(counts().computed).toBe(before.computed + 4);
  });

  it('shows a change made through the product in the next answer (a lock, a save)', async () => {
    expect((await items('admin')).map((m) => m.locked)).toEqual([false, false, false]);
    const lock = await app.inject({ method: 'POST', url: '/api/module/lock', headers: await as('eu'), payload: [{ moduleName: 'AUR_EU_02', monthId: 'M01_2027' }] });
    expect(lock.statusCode, lock.body).toBe(200);
    const after = await items('admin');
    expect(after.find((m) => m.moduleName === 'AUR_EU_02')).toMatchObject({ locked: true, userLock: 'eu' });
    const unlock = await app.inject({ method: 'POST', url: '/api/module/unlock', headers: await as('eu'), payload: [{ moduleName: 'AUR_EU_02', monthId: 'M01_2027' }] });
    expect(unlock.statusCode, unlock.body).toBe(200);
    expect((await items('admin')).find((m) => m.moduleName === 'AUR_EU_02')).toMatchObject({ locked: false, userLock: null });
  });

  it('shows a change made in plain SQL in the next answer, and a module gone', async () => {
    await items('eu');
    await db().update(modules).set({ moduleLabel: 'Renamed in SQL' }).where(eq(modules.moduleName, 'AUR_EU_01'));
    expect((await items('eu')).find((m) => m.moduleName === 'AUR_EU_01')?.moduleLabel).toBe('Renamed in SQL');
    await db().update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.moduleName, 'AUR_EU_01'));
    expect((await items('eu')).map((m) => m.moduleName)).toEqual(['AUR_EU_02']);
  });

  it('keeps an answer no longer than its first live lock lives (a lock lapses with time alone)', async () => {
    const ttlSeconds = app.config.LOCK_TTL_MINUTES * 60;
    const lifeSeconds = 4;
    // A lock whose time to live ends in about 4 s.
    const inserted = performance.now();
    await db()
      .insert(locks)
      .values({ itemType: 'module', itemKey: 'AUR_EU_01', monthId: 'M01_2027', owner: 'admin', renewedAt: sql`now() - make_interval(secs => ${ttlSeconds - lifeSeconds})` });
    const snapshot = await currentSnapshot(db());
    expect((await items('eu')).find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: true, userLock: 'admin' });
    const kept = counts().kept;
    expect((await items('eu')).find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: true });
    expect(counts().kept).toBe(kept + 1);
    await new Promise((r) => setTimeout(r, Math.max(0, inserted + lifeSeconds * 1000 + 300 - performance.now())));
    // Nothing was written meanwhile, yet the lock is no longer live: the answer is computed again.
    expect(await currentSnapshot(db())).toBe(snapshot);
    expect((await items('eu')).find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: false, userLock: null });
    expect(counts().kept).toBe(kept + 1);
  });

  it('computes identical searches that come together once', async () => {
    const before = counts();
    const answers = await Promise.all(Array.from({ length: 6 }, () => search('eu')));
    expect(new Set(answers).size).toBe(1);
    expect(counts().computed).toBe(before.computed + 1);
    expect(counts().kept).toBe(before.kept + 5);
  });

  it('keeps no 413', async () => {
    await app.close();
    await buildWorld({ MAX_SEARCH_RESULTS: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/module/filtered', headers: await as('admin'), payload: M01 });
      expect(res.statusCode).toBe(413);
    }
    expect(app.searchAnswers.size.entries).toBe(0);
  });
});

describe('SEARCH_CACHE_MB=0', () => {
  it('keeps nothing: every search is computed', async () => {
    await buildWorld({ SEARCH_CACHE_MB: 0 });
    const before = counts();
    expect(await search('eu')).toBe(await search('eu'));
    expect(counts()).toEqual({ kept: before.kept, computed: before.computed + 2 });
    expect(app.searchAnswers.size.entries).toBe(0);
  });
});
