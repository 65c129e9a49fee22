/**
 * The home search's list answers kept while what they cover has not changed (lib/kept-answers.ts, migration 0015): a
 * second identical search is answered from memory; a change to an item of one month and brand leaves the answers of
 * other months and brands kept; and whatever changes — through the product, from another server process, in plain
 * SQL, a lock that lapses with time alone — is in the next answer of every list that can show it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { AUR_EU, buildCluster, buildModule, buildSku, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { testDatabase } from '../../../test/test-database.js';
import { buildApp } from '../../app.js';
import { loadConfig, type Config } from '../../config.js';
import { queryRows } from '../../db/client.js';
import { locks, modules } from '../../db/schema.js';
import { compactSearchChanges } from '../../lib/kept-answers.repository.js';
import * as repo from './search.repository.js';

const USERS = {
  admin: { role: 'ADMIN' },
  eu: { grants: { view: AUR_EU, edit: AUR_EU } },
  na: { grants: { view: { brands: ['AUR'], zones: ['NA'] } } },
  both: { grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
/** A second server process on the same database that keeps no answer: the writes through the product, and the fresh answers. */
let other: FastifyInstance | undefined;
let as: TestApp<User>['as'];
let users: TestApp<User>['users'];
const db = () => app.database.db;
const M01 = { monthId: ['M01_2027'] };

async function buildWorld(config: Partial<Config> = {}) {
  ({ app, as, users } = await buildTestApp({ config, reference: true, users: USERS }));
  await buildModule(db(), { moduleName: 'AUR_EU_01' });
  await buildModule(db(), { moduleName: 'AUR_EU_02' });
  await buildModule(db(), { moduleName: 'AUR_NA_01', zones: ['NA'] });
  // Every user's token before any counting: a login writes (its audit entry).
  for (const user of Object.keys(USERS) as User[]) await as(user);
}

/** The second process: another app on the worker's database (the same signing secret, so the same tokens). */
async function startOther(): Promise<FastifyInstance> {
  const config = loadConfig({ LOG_LEVEL: 'silent' }, { WEB_DIST_DIR: '/nonexistent-web-dist', SEARCH_CACHE_MB: 0 });
  other = await buildApp({ config, database: await testDatabase(), logger: false, checkAnswers: true });
  return other;
}

afterEach(async () => {
  await other?.close();
  other = undefined;
  await app.close();
});

const search = async (user: User, url = '/api/module/filtered', filters: object = M01, on: FastifyInstance = app) => {
  const res = await on.inject({ method: 'POST', url, headers: await as(user), payload: filters });
  expect(res.statusCode, `${url} ${JSON.stringify(filters)} ${res.body}`).toBe(200);
  return res.body;
};
const items = async (user: User) => JSON.parse(await search(user)) as { moduleName: string; moduleLabel: string; locked: boolean; userLock: string | null }[];
const counts = () => ({ ...app.searchAnswers.counts });
/** How the counts moved while `calls` ran. */
async function counted<T>(calls: () => Promise<T>): Promise<{ result: T; kept: number; refreshed: number; computed: number }> {
  const before = counts();
  const result = await calls();
  const after = counts();
  return { result, kept: after.kept - before.kept, refreshed: after.refreshed - before.refreshed, computed: after.computed - before.computed };
}

/** A search asked twice: the second answer is the first, from memory. */
async function expectKept(user: User, url = '/api/module/filtered', filters: object = M01): Promise<string> {
  const { result, kept, computed } = await counted(async () => [await search(user, url, filters), await search(user, url, filters)] as const);
  expect(result[1]).toBe(result[0]);
  expect(kept).toBe(1);
  expect(computed).toBe(1);
  return result[0];
}

describe('search answers kept while what they cover has not changed', () => {
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
    // Five different calls, asked again: the second round is all from memory.
    const calls = () => Promise.all([search('eu'), search('na'), search('admin'), search('eu', '/api/module/macroFamily'), search('admin', '/api/cluster/filtered')]);
    const twice = await counted(async () => [await calls(), await calls()] as const);
    expect(twice.result[1]).toEqual(twice.result[0]);
    expect(twice.kept).toBeGreaterThanOrEqual(5);
    expect(twice.computed).toBeLessThanOrEqual(5);
  });

  it('keeps the answers of other months and brands when an item changes: a save of an AUR module of 01/2027 leaves VLT and 02/2027', async () => {
    await buildModule(db(), { moduleName: 'VLT_EU_01', brandCode: 'VLT' });
    await buildModule(db(), { moduleName: 'AUR_EU_0227', monthId: 'M02_2027' });
    const searches: [User, object][] = [
      ['admin', M01],
      ['admin', { ...M01, brand: ['AUR'] }],
      ['admin', { ...M01, brand: ['VLT'] }],
      ['admin', { monthId: ['M02_2027'] }],
      ['admin', { brand: ['VLT'] }],
      ['eu', M01], // eu sees AUR only: its answer covers AUR
      ['both', { monthId: ['M02_2027'] }],
    ];
    const ask = () => Promise.all(searches.map(([user, filters]) => search(user, '/api/module/filtered', filters)));
    await ask();
    await db().update(modules).set({ moduleLabel: 'Saved' }).where(eq(modules.moduleName, 'AUR_EU_01'));
    const after = await counted(ask);
    // Refreshed (the one module read again): M01 (all brands), M01 + AUR, eu's M01; kept: M01 + VLT, M02, VLT, both's M02.
    expect(after).toMatchObject({ refreshed: 3, computed: 0, kept: 4 });
    expect(after.result[0]).toContain('Saved');
    expect(after.result[5]).toContain('Saved');

    // A lock taken through the product, by another server process: the same three, nothing else.
    const second = await startOther();
    const lock = await second.inject({ method: 'POST', url: '/api/module/lock', headers: await as('eu'), payload: [{ moduleName: 'AUR_EU_02', monthId: 'M01_2027' }] });
    expect(lock.statusCode, lock.body).toBe(200);
    const locked = await counted(ask);
    expect(locked).toMatchObject({ refreshed: 3, computed: 0, kept: 4 });
    expect(JSON.parse(locked.result[0]!).find((m: { moduleName: string }) => m.moduleName === 'AUR_EU_02')).toMatchObject({ locked: true, userLock: 'eu' });

    // Folding the change log into its totals changes no version.
    expect(await compactSearchChanges(db())).toBeGreaterThan(0);
    expect(await counted(ask)).toMatchObject({ computed: 0, kept: searches.length });
  });

  it('keeps every answer through statements that change no row and a release of other months opened and closed (a release load elsewhere)', async () => {
    const store = await buildStore(db(), 'IT');
    const searches: [User, string, object][] = [
      ['admin', '/api/module/filtered', M01],
      ['admin', '/api/module/filtered', { ...M01, starsCustomer: [store.starsCustomer] }],
      ['admin', '/api/cluster/filtered', M01],
      ['eu', '/api/module/filtered', M01],
      ['admin', '/api/module/filtered', {}],
    ];
    const ask = () => Promise.all(searches.map(([user, url, filters]) => search(user, url, filters)));
    const first = await ask();
    // What a release load of other months writes besides its items, as the loader writes it: a release of its own with
    // its months, opened for the load and closed after; stores, brands and grants upserted as they are; nothing deleted.
    await db().execute(sql`INSERT INTO releases (release_id, status) VALUES ('R2031', 'CLOSED')`);
    await db().execute(sql`INSERT INTO months (month_id, year, month, open, release_id) VALUES ('M01_2031', 2031, 1, false, 'R2031')`);
    await ask(); // the month's own row: (M01_2031, '*'), within the answers over every month
    const unchanged: SQL[] = [
      sql`UPDATE releases SET status = 'OPEN' WHERE release_id = 'R2031'`,
      sql`UPDATE stores SET name = name, stars_customer = stars_customer`,
      sql`INSERT INTO brands (brand_code, description) SELECT brand_code, description FROM brands
          ON CONFLICT (brand_code) DO UPDATE SET description = EXCLUDED.description`,
      sql`INSERT INTO collections (collection_code, description) SELECT collection_code, description FROM collections
          ON CONFLICT (collection_code) DO UPDATE SET description = EXCLUDED.description WHERE collections.description IS DISTINCT FROM EXCLUDED.description`,
      sql`UPDATE user_grants SET grant_code = grant_code`,
      sql`DELETE FROM countries WHERE false`,
      sql`UPDATE releases SET status = 'CLOSED' WHERE release_id = 'R2031'`,
    ];
    for (const statement of unchanged) await db().execute(statement);
    // The release's opening and closing are its month's changes: only the answer over every month covers M01_2031.
    const after = await counted(ask);
    expect(after).toMatchObject({ computed: 1, refreshed: 0, kept: searches.length - 1 });
    expect(after.result).toEqual(first);
    for (const statement of unchanged.slice(1, -1)) await db().execute(statement);
    expect(await counted(ask)).toMatchObject({ computed: 0, refreshed: 0, kept: searches.length });

    // A row that did change among unchanged ones is still every answer's change; a release's own change is its months'.
    await db().execute(sql`UPDATE stores SET name = CASE WHEN store_jda = ${store.storeJda} THEN name || ' renamed' ELSE name END`);
    expect(await counted(ask)).toMatchObject({ computed: searches.length, kept: 0 });
    await db().execute(sql`UPDATE releases SET status = 'CLOSED' WHERE release_id = 'R2027'`);
    expect(await counted(ask)).toMatchObject({ computed: searches.length, kept: 0 });
    await db().execute(sql`UPDATE releases SET status = 'OPEN' WHERE release_id = 'R2031'`);
    expect(await counted(ask)).toMatchObject({ computed: 1, kept: searches.length - 1 });
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
    const first = await counted(() => items('eu'));
    expect(first.result.find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: true, userLock: 'admin' });
    expect(first).toMatchObject({ computed: 1, kept: 0 });
    const again = await counted(() => items('eu'));
    expect(again.result.find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: true, userLock: 'admin' });
    expect(again).toMatchObject({ computed: 0, kept: 1 });
    await new Promise((r) => setTimeout(r, Math.max(0, inserted + lifeSeconds * 1000 + 300 - performance.now())));
    // The lock is no longer live, and nothing was written meanwhile: the module of that lock is read again.
    const lapsed = await counted(() => items('eu'));
    expect(lapsed.result.find((m) => m.moduleName === 'AUR_EU_01')).toMatchObject({ locked: false, userLock: null });
    expect(lapsed).toMatchObject({ kept: 0, refreshed: 1, computed: 0 });
  });

  it('computes identical searches that come together once', async () => {
    const together = await counted(() => Promise.all(Array.from({ length: 6 }, () => search('eu'))));
    expect(new Set(together.result).size).toBe(1);
    expect(together).toMatchObject({ computed: 1, kept: 5 });
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

describe('no kept answer is stale', () => {
  /**
   * Lists over two months and two brands, for callers of three visibilities, with the filters that read other tables
   * (stars customers, countries, stores, classifications). After each change (made in plain SQL, through the product
   * by another process, or in a transaction's savepoints), every list is asked of the app that keeps answers and of a
   * second process that keeps none: the answers must be the same, and the change must show in at least one of them
   * (so that each step checks something).
   */
  it('after every kind of change a list shows', async () => {
    await buildWorld();
    const d = db();
    const storeIt = await buildStore(d, 'IT');
    const storeUs = await buildStore(d, 'US');
    await buildModule(d, { moduleName: 'VLT_EU_01', brandCode: 'VLT' });
    await buildSku(d, { upc: '100000000001' });
    await buildSku(d, { upc: '100000000002' });
    await buildModule(d, { moduleName: 'AUR_EU_0227', monthId: 'M02_2027', skus: [{ upc: '100000000001' }] });
    await buildCluster(d, { clusterId: 'C_AUR_01', storeJdas: [storeIt.storeJda], modules: [{ moduleName: 'AUR_EU_01' }] });
    await buildCluster(d, { clusterId: 'C_VLT_01', brandCode: 'VLT', countries: ['US'], zones: ['NA'], storeJdas: [storeUs.storeJda] });
    await buildCluster(d, { clusterId: 'C_AUR_02', monthId: 'M02_2027' });
    await d.execute(sql`INSERT INTO client_classifications (classification_label) VALUES ('VIP')`);
    await d.execute(sql`INSERT INTO cluster_classifications (cluster_pk, classification_id)
                        SELECT c.id, cl.classification_id FROM clusters c, client_classifications cl WHERE c.cluster_id = 'C_AUR_01'`);
    const second = await startOther();

    const M02 = { monthId: ['M02_2027'] };
    const lists: [User, string, object][] = [];
    for (const user of ['admin', 'eu', 'both'] as User[]) {
      for (const filters of user === 'admin' ? [M01, M02, { ...M01, brand: ['VLT'] }, {}] : [M01, { ...M01, brand: ['VLT'] }]) {
        lists.push([user, '/api/module/filtered', filters], [user, '/api/cluster/filtered', filters]);
      }
      lists.push(
        [user, '/api/module/filtered', { ...M01, starsCustomer: [storeIt.starsCustomer, storeUs.starsCustomer] }],
        [user, '/api/cluster/filtered', { ...M01, country: ['IT', 'US'] }],
      );
    }
    lists.push(
      ['admin', '/api/module/macroFamily', M01],
      ['admin', '/api/module/filtered', { ...M01, country: ['IT'] }],
      ['admin', '/api/cluster/filtered', { ...M01, starsCustomer: [storeIt.starsCustomer] }],
      ['admin', '/api/cluster/filtered', { ...M01, clientClassification: ['VIP'] }],
      ['admin', '/api/cluster/filtered', { ...M01, customerSegmentation: ['GOLD'] }],
    );
    const ask = (on: FastifyInstance) => Promise.all(lists.map(([user, url, filters]) => search(user, url, filters, on)));
    let before = await ask(second);
    expect(await ask(app)).toEqual(before);
    expect((await ask(app)).length).toBe(lists.length);

    const moduleId = async (name: string, month = 'M01_2027') =>
      (await queryRows<{ id: number }>(d, sql`SELECT id FROM modules WHERE module_name = ${name} AND month_id = ${month}`))[0]!.id;
    const clusterPk = async (id: string, month = 'M01_2027') =>
      (await queryRows<{ id: number }>(d, sql`SELECT id FROM clusters WHERE cluster_id = ${id} AND month_id = ${month}`))[0]!.id;
    const through = async (user: User, url: string, payload: object) => {
      const res = await second.inject({ method: 'POST', url, headers: await as(user), payload });
      expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    };

    const changes: [string, () => Promise<unknown>][] = [
      ['module lock (product, other process)', () => through('eu', '/api/module/lock', [{ moduleName: 'AUR_EU_01', monthId: 'M01_2027' }])],
      ['module unlock (product, other process)', () => through('eu', '/api/module/unlock', [{ moduleName: 'AUR_EU_01', monthId: 'M01_2027' }])],
      ['cluster lock (SQL)', () => d.execute(sql`INSERT INTO locks (item_type, item_key, month_id, owner) VALUES ('cluster', 'C_VLT_01', 'M01_2027', 'admin')`)],
      ['cluster lock renewed by another owner', () => d.execute(sql`UPDATE locks SET owner = 'both', renewed_at = now() WHERE item_key = 'C_VLT_01'`)],
      ['cluster lock gone', () => d.execute(sql`DELETE FROM locks WHERE item_key = 'C_VLT_01'`)],
      // More than 50 locks in one statement: the trigger's statement planned for their size (migration 0019).
      ['locks of more than 50 items in one statement (SQL)', () =>
        d.execute(sql`INSERT INTO locks (item_type, item_key, month_id, owner)
                      SELECT 'module', 'AUR_EU_01', 'M01_2027', 'admin' UNION ALL SELECT 'module', 'GHOST_' || g, 'M01_2027', 'admin' FROM generate_series(1, 55) g`)],
      ['those locks taken over by another owner in one statement', () => d.execute(sql`UPDATE locks SET owner = 'eu' WHERE owner = 'admin' AND item_type = 'module'`)],
      ['those locks released in one statement', () => d.execute(sql`DELETE FROM locks WHERE owner = 'eu' AND item_type = 'module'`)],
      ['module status', () => d.execute(sql`UPDATE modules SET status = 'SUBMITTED' WHERE module_name = 'VLT_EU_01'`)],
      ['cluster status', () => d.execute(sql`UPDATE clusters SET status = 'SUBMITTED' WHERE cluster_id = 'C_AUR_02'`)],
      ['module line counts (a line added)', async () => d.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status, min_value, position)
                                                                     VALUES (${await moduleId('AUR_EU_02')}, '100000000002', true, 'ADDED', 1, 0)`)],
      ['module line counts (a line to the bin)', () => d.execute(sql`UPDATE module_skus SET status = 'REMOVED', previous_must_have = true WHERE upc = '100000000001'`)],
      ['module zones (EU to NA: out of eu, into na)', async () => d.execute(sql`UPDATE module_stars_zones SET stars_zone = 'NA' WHERE module_id = ${await moduleId('AUR_EU_02')}`)],
      ['module zones (none: seen by every holder of the brand)', async () => d.execute(sql`DELETE FROM module_stars_zones WHERE module_id = ${await moduleId('AUR_EU_02')}`)],
      ['grants (eu given VLT)', () => d.execute(sql`INSERT INTO user_grants (user_id, grant_type, grant_code, permission_type) VALUES (${users.eu.userId}, 'brand', 'VLT', 'view')`)],
      ['grants (eu loses NA-less view: zone EU taken away)', () => d.execute(sql`DELETE FROM user_grants WHERE user_id = ${users.eu.userId} AND grant_code = 'EU' AND permission_type = 'view'`)],
      ['module deletion pending', () => d.execute(sql`UPDATE modules SET deletion_status = 'DELETION_PENDING' WHERE module_name = 'AUR_NA_01'`)],
      ['cluster deletion pending', () => d.execute(sql`UPDATE clusters SET deletion_status = 'DELETION_PENDING' WHERE cluster_id = 'C_AUR_02'`)],
      ['module label and description', () => d.execute(sql`UPDATE modules SET module_label = 'New label', module_description = 'New text' WHERE module_name = 'AUR_EU_0227'`)],
      ['cluster label and description', () => d.execute(sql`UPDATE clusters SET cluster_label = 'New cluster label', cluster_description = 'x' WHERE cluster_id = 'C_AUR_01'`)],
      ['cluster composition (a VLT module into an AUR cluster)', async () =>
        d.execute(sql`INSERT INTO cluster_modules (cluster_pk, module_name, status) VALUES (${await clusterPk('C_AUR_01')}, 'VLT_EU_01', 'ADDED')`)],
      ['cluster composition (a module removed)', () => d.execute(sql`UPDATE cluster_modules SET status = 'REMOVED' WHERE module_name = 'AUR_EU_01'`)],
      ['cluster stores (a store added)', async () => d.execute(sql`INSERT INTO cluster_stores (cluster_pk, store_jda) VALUES (${await clusterPk('C_AUR_01')}, ${storeUs.storeJda})`)],
      ['cluster stores (a store removed)', async () => d.execute(sql`DELETE FROM cluster_stores WHERE cluster_pk = ${await clusterPk('C_VLT_01')}`)],
      ['cluster countries', async () => d.execute(sql`INSERT INTO cluster_countries (cluster_pk, country_code) VALUES (${await clusterPk('C_VLT_01')}, 'FR')`)],
      ['cluster stars zones', async () => d.execute(sql`INSERT INTO cluster_stars_zones (cluster_pk, stars_zone) VALUES (${await clusterPk('C_VLT_01')}, 'EU')`)],
      ['cluster classification taken away', () => d.execute(sql`DELETE FROM cluster_classifications`)],
      ['month closed', () => d.execute(sql`UPDATE months SET open = false WHERE month_id = 'M02_2027'`)],
      ['release closed', () => d.execute(sql`UPDATE releases SET status = 'CLOSED'`)],
      ['release reopened, among releases written unchanged', async () => {
        await d.execute(sql`INSERT INTO releases (release_id, status) VALUES ('R2031', 'CLOSED')`);
        await d.execute(sql`UPDATE releases SET status = CASE WHEN release_id = 'R2027' THEN 'OPEN' ELSE status END`);
      }],
      ['LEGO month (reference)', () => d.execute(sql`INSERT INTO lego_months (month_id, brand_code, collection) VALUES ('M01_2027', 'VLT', 'SUN')`)],
      ['macro family special kind (reference)', () => d.execute(sql`UPDATE macro_families SET special_kind = 'BEST_SELLER'`)],
      ['store of another stars customer, among stores written unchanged (reference, as a release load writes them)', () =>
        d.execute(sql`UPDATE stores SET stars_customer = CASE WHEN store_jda = ${storeIt.storeJda} THEN ${storeUs.starsCustomer} ELSE stars_customer END`)],
      ['store segmentation (reference)', async () => {
        await d.execute(sql`INSERT INTO customer_segmentations (segmentation_code, label) VALUES ('SILVER', 'Silver')`);
        await d.execute(sql`UPDATE stores SET customer_segmentation = 'SILVER'`);
      }],
      ['country in another zone (reference)', () => d.execute(sql`UPDATE countries SET stars_zone = 'NA' WHERE country_code = 'IT'`)],
      ['module moved to another month', () => d.execute(sql`UPDATE modules SET month_id = 'M02_2027' WHERE module_name = 'AUR_EU_01'`)],
      ['module of another brand', () => d.execute(sql`UPDATE modules SET brand_code = 'VLT' WHERE module_name = 'AUR_EU_0227'`)],
      ['savepoint rolled back, then another change of the same scope', () =>
        d.transaction(async (tx) => {
          await tx
            .transaction(async (inner) => {
              await inner.execute(sql`UPDATE modules SET module_label = 'Rolled back' WHERE module_name = 'VLT_EU_01'`);
              throw new Error('roll back');
            })
            .catch(() => undefined);
          await tx.execute(sql`UPDATE clusters SET cluster_label = 'Kept label' WHERE cluster_id = 'C_VLT_01'`);
        })],
      ['log compacted, then a change', async () => {
        await compactSearchChanges(d);
        await d.execute(sql`UPDATE clusters SET cluster_label = 'After compaction' WHERE cluster_id = 'C_VLT_01'`);
      }],
      ['a cluster deleted', () => d.execute(sql`DELETE FROM clusters WHERE cluster_id = 'C_AUR_01'`)],
      ['a module deleted', () => d.execute(sql`DELETE FROM modules WHERE module_name = 'VLT_EU_01'`)],
      ['TRUNCATE of a reference table', () => d.execute(sql`TRUNCATE lego_months`)],
    ];
    const refreshedBefore = app.searchAnswers.counts.refreshed;
    for (const [what, change] of changes) {
      await change();
      const kept = await ask(app);
      const fresh = await ask(second);
      for (let i = 0; i < lists.length; i++) expect(kept[i], `${what}: ${JSON.stringify(lists[i])}`).toBe(fresh[i]);
      expect(fresh.some((answer, i) => answer !== before[i]), `${what} shows in no list`).toBe(true);
      before = fresh;
    }
    // Most of those changes were of items alone: their answers were refreshed, not computed whole.
    expect(app.searchAnswers.counts.refreshed - refreshedBefore).toBeGreaterThan(lists.length);
  }, 300_000);

  it('when two transactions commit in another order than they wrote (PostgreSQL)', async () => {
    await buildWorld();
    const database = app.database;
    if (database.kind === 'pglite') return; // one connection: transactions cannot interleave
    const second = await startOther();
    await buildModule(db(), { moduleName: 'AUR_EU_03' });
    await search('admin');
    // The first writes (its change noted first), the second writes and commits, a search keeps that state, then the
    // first commits: its change is in the next answer.
    let commitFirst!: () => void;
    const gate = new Promise<void>((r) => (commitFirst = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const first = db().transaction(async (tx) => {
      await tx.execute(sql`UPDATE modules SET module_label = 'First' WHERE module_name = 'AUR_EU_01'`);
      wrote();
      await gate;
    });
    await written;
    // A module of the same brand-month saved while the first is open: it waits for nothing (no version row to queue on).
    await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL lock_timeout = '3s'`);
      await tx.update(modules).set({ moduleLabel: 'Second' }).where(eq(modules.moduleName, 'AUR_EU_02'));
    });
    expect(await search('admin')).toBe(await search('admin', '/api/module/filtered', M01, second));
    commitFirst();
    await first;
    const after = await search('admin');
    expect(after).toContain('First');
    expect(after).toBe(await search('admin', '/api/module/filtered', M01, second));
  });
});

describe('answers refreshed item by item', () => {
  beforeEach(async () => {
    await buildWorld();
  });

  it('reads again only the items changed since, and computes whole after a change of a whole scope', async () => {
    const second = await startOther();
    const fresh = () => search('admin', '/api/module/filtered', M01, second);
    await search('admin');
    // A module renamed, one added, one deleted: each in the next answer, in the list's order, without reading the list whole.
    await db().update(modules).set({ moduleLabel: 'A first' }).where(eq(modules.moduleName, 'AUR_EU_02'));
    // (inserted as such: buildModule also writes its macro family, which changes every answer)
    await db().execute(sql`INSERT INTO modules (module_name, month_id, module_label, module_description, macro_family, brand_code, collection, status)
                           SELECT 'AUR_EU_00', month_id, 'AUR_EU_00 label', '', macro_family, brand_code, collection, status FROM modules WHERE module_name = 'AUR_EU_01'`);
    await db().update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.moduleName, 'AUR_NA_01'));
    const refreshed = await counted(() => search('admin'));
    expect(refreshed).toMatchObject({ refreshed: 1, computed: 0 });
    expect(refreshed.result).toBe(await fresh());
    expect(JSON.parse(refreshed.result).map((m: { moduleName: string }) => m.moduleName)).toEqual(['AUR_EU_02', 'AUR_EU_00', 'AUR_EU_01']);
    // The month's own row changed: every list of the month is computed whole.
    await db().execute(sql`UPDATE months SET open = open WHERE month_id = 'M01_2027'`);
    expect(await counted(() => search('admin'))).toMatchObject({ refreshed: 0, computed: 1 });
    // The log folded into its totals before the changes were read: computed whole (the count says some are missing).
    await db().update(modules).set({ moduleLabel: 'B' }).where(eq(modules.moduleName, 'AUR_EU_02'));
    await compactSearchChanges(db());
    const whole = await counted(() => search('admin'));
    expect(whole).toMatchObject({ refreshed: 0, computed: 1 });
    expect(whole.result).toBe(await fresh());
  });

  it('notes items one by one, each once per transaction, and more than 50 of one scope as the scope', async () => {
    const noted = () => queryRows<{ monthId: string; brandCode: string; itemType: string | null; itemId: number | null }>(
      db(),
      sql`SELECT month_id AS "monthId", brand_code AS "brandCode", item_type AS "itemType", item_id::int AS "itemId" FROM search_changes ORDER BY id`,
    );
    await compactSearchChanges(db());
    await db().transaction(async (tx) => {
      await tx.update(modules).set({ moduleLabel: 'x' }).where(eq(modules.moduleName, 'AUR_EU_01'));
      await tx.update(modules).set({ moduleLabel: 'y' }).where(eq(modules.moduleName, 'AUR_EU_01'));
    });
    const id = (await queryRows<{ id: number }>(db(), sql`SELECT id::int AS id FROM modules WHERE module_name = 'AUR_EU_01'`))[0]!.id;
    expect(await noted()).toEqual([{ monthId: 'M01_2027', brandCode: 'AUR', itemType: 'module', itemId: id }]);
    await compactSearchChanges(db());
    const many = Array.from({ length: 51 }, (_, i) => i + 1);
    await db().execute(sql`SELECT note_search_changes(array_fill('M02_2027'::text, ARRAY[51]), array_fill('VLT'::text, ARRAY[51]),
                                                      array_fill('module'::text, ARRAY[51]), ${sql.param(many)}::bigint[])`);
    expect(await noted()).toEqual([{ monthId: 'M02_2027', brandCode: 'VLT', itemType: null, itemId: null }]);
  });
});

describe('the change log', () => {
  it('has the triggers on every table a result list reads', async () => {
    await buildWorld();
    const everything = {
      monthId: ['M01_2027'], planningChannel: ['RETAIL'], brand: ['AUR'], collection: ['SUN'], macroFamily: ['PILOT'], newModule: ['true' as const],
      starsZone: ['EU'], country: ['IT'], starsCustomer: ['X'], moduleLabel: ['x'], clusterId: ['C'], rangeFacing: ['R'],
      customerSegmentation: ['GOLD'], storeJda: ['J'], codiceStoreSap: ['S'], clientClassification: ['VIP', '1'], clusterLabel: ['x'],
    };
    const visibility = { all: false as const, pairs: ['AUR|EU'], brands: ['AUR'] };
    const dialect = new PgDialect();
    const texts = [
      repo.moduleListJsonQuery(repo.moduleWhere(everything, visibility, undefined, repo.LIST_ZONES), 120, 10),
      repo.clusterListJsonQuery(repo.clusterWhere(everything, visibility), 120, 10),
    ].map((q) => dialect.sqlToQuery(q).sql);
    const named = new Set(texts.flatMap((t) => [...t.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)(?![\w.(])/gi)].map((m) => m[1]!.toLowerCase())));
    const tables = new Set((await queryRows<{ t: string }>(db(), sql`SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema()`)).map((r) => r.t));
    const read = [...named].filter((t) => tables.has(t));
    expect(read).toEqual(expect.arrayContaining(['modules', 'clusters', 'locks', 'months', 'releases', 'module_stars_zones', 'cluster_stores']));
    const triggered = new Set(
      (
        await queryRows<{ t: string }>(
          db(),
          sql`SELECT DISTINCT c.relname AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
               WHERE c.relnamespace = current_schema()::regnamespace AND g.tgname LIKE '%\\_search\\_%' AND g.tgenabled = 'A'`,
        )
      ).map((r) => r.t),
    );
    expect(read.filter((t) => !triggered.has(t))).toEqual([]);
  });

  it('never comes back to a version it had when emptied (a reset, a restore)', async () => {
    await buildWorld();
    const version = async () => (await queryRows<{ v: string }>(db(), sql`SELECT count(*) || ':' || max(id) AS v FROM search_changes`))[0]!.v;
    await compactSearchChanges(db());
    const seen = new Set<string>();
    const totals = async () =>
      (await queryRows<{ v: string }>(db(), sql`SELECT COALESCE(sum(n), 0) || ':' || COALESCE(max(last_id), 0) AS v FROM search_change_totals`))[0]!.v;
    seen.add(`${await totals()}|${await version()}`);
    await db().execute(sql`DELETE FROM search_changes`);
    await db().execute(sql`DELETE FROM search_change_totals`);
    const afterDelete = (await queryRows<{ n: number; m: number }>(db(), sql`SELECT count(*)::int AS n, max(id)::int AS m FROM search_changes`))[0]!;
    expect(afterDelete.n).toBe(2);
    await db().execute(sql`TRUNCATE search_changes, search_change_totals, modules RESTART IDENTITY CASCADE`);
    const afterTruncate = (await queryRows<{ n: number; m: number }>(db(), sql`SELECT count(*)::int AS n, max(id)::int AS m FROM search_changes`))[0]!;
    expect(afterTruncate.n).toBeGreaterThanOrEqual(1);
    expect(afterTruncate.m).toBeGreaterThan(afterDelete.m);
  });
});

describe('SEARCH_CACHE_MB=0', () => {
  it('keeps nothing: every search is computed', async () => {
    await buildWorld({ SEARCH_CACHE_MB: 0 });
    const before = counts();
    expect(await search('eu')).toBe(await search('eu'));
    expect(counts()).toEqual({ kept: before.kept, refreshed: 0, computed: before.computed + 2 });
    expect(app.searchAnswers.size.entries).toBe(0);
  });
});
