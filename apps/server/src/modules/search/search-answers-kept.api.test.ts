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

/**
 * Runs `calls` until no commit came anywhere in the database meanwhile (the snapshot before and after the same),
 * and answers that run's results and how the counts moved. On the embedded database nothing else writes; on a
 * PostgreSQL shared with test files running beside this one, their commits change the snapshot too: after 40 tries
 * without a quiet window it answers null (the caller then checks what holds whatever the snapshot).
 */
async function whileQuiet<T>(calls: () => Promise<T>): Promise<{ result: T; kept: number; computed: number } | null> {
  for (let i = 0; i < 40; i++) {
    const snapshot = await currentSnapshot(db());
    const before = counts();
    const result = await calls();
    const after = counts();
    if ((await currentSnapshot(db())) === snapshot) return { result, kept: after.kept - before.kept, computed: after.computed - before.computed };
  }
  if (app.database.kind === 'pglite') throw new Error('the embedded database changed while nothing wrote');
  return null;
}

/** A search asked twice in a quiet window: the second answer is the first, from memory. */
async function expectKept(user: User, url = '/api/module/filtered', filters: object = M01): Promise<string> {
  const quiet = await whileQuiet(async () => [await search(user, url, filters), await search(user, url, filters)] as const);
  if (!quiet) return search(user, url, filters);
  const [first, second] = quiet.result;
  expect(second).toBe(first);
  expect(quiet.kept).toBeGreaterThanOrEqual(1);
  expect(quiet.kept + quiet.computed).toBe(2);
  return first;
}

describe('search answers kept while the database has not changed', () => {
  beforeEach(async () => {
    await buildWorld();
  });

  it('answers the same search again from memory, per route, filters and visibility', async () => {
    const eu = await expectKept('eu');
    expect(JSON.parse(eu).map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_EU_01', 'AUR_EU_02']);
    // Another route, other filters, another visibility: each its own answer, each kept.
    const families = await expectKept('eu', '/api/module/macroFamily');
    expect(JSON.parse(families)[0].moduleList.map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_EU_01', 'AUR_EU_02']);
    const na = await expectKept('na');
    expect(JSON.parse(na).map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_NA_01']);
    const named = await expectKept('eu', '/api/module/filtered', { ...M01, moduleLabel: ['02'] });
    expect(JSON.parse(named).map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_EU_02']);
    expect(JSON.parse(await expectKept('eu', '/api/cluster/filtered'))).toEqual([]);
    // Five different calls in one quiet window, asked again: the second round is all from memory.
    const calls = () => Promise.all([search('eu'), search('na'), search('admin'), search('eu', '/api/module/macroFamily'), search('admin', '/api/cluster/filtered')]);
    const quiet = await whileQuiet(async () => [await calls(), await calls()] as const);
    if (quiet) {
      expect(quiet.result[1]).toEqual(quiet.result[0]);
      expect(quiet.kept).toBeGreaterThanOrEqual(5);
      expect(quiet.computed).toBeLessThanOrEqual(5);
    }
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
    expect(JSON.parse(await expectKept('eu')).find((m: { moduleName: string }) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: true });
    const kept = counts().kept;
    await new Promise((r) => setTimeout(r, Math.max(0, inserted + lifeSeconds * 1000 + 300 - performance.now())));
    // The lock is no longer live, and nothing was written meanwhile (on the embedded database; on a shared
    // PostgreSQL other test files may have): the answer is computed again.
    const quiet = (await currentSnapshot(db())) === snapshot;
    if (app.database.kind === 'pglite') expect(quiet).toBe(true);
    expect((await items('eu')).find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: false, userLock: null });
    if (quiet) expect(counts().kept).toBe(kept);
  });

  it('computes identical searches that come together once', async () => {
    const quiet = await whileQuiet(() => Promise.all(Array.from({ length: 6 }, () => search('eu'))));
    if (!quiet) return;
    expect(new Set(quiet.result).size).toBe(1);
    expect(quiet.computed).toBeLessThanOrEqual(1);
    expect(quiet.kept + quiet.computed).toBe(6);
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
