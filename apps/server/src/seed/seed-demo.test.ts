import { verify } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabase } from '../../test/test-database.js';
import { queryRows, type Database } from '../db/client.js';
import { clearAllData, hasUsers, seedDemo, type SeedSummary } from './seed-demo.js';
import { addMonths } from '@bo/shared/months';
import { clusterSnapshot } from '../items/cluster/cluster-snapshot.js';
import { moduleSnapshot } from '../items/module/module-snapshot.js';
import { planningSystemChecks } from '../items/lifecycle/planning-gateway.js';
import { FIRST_OPEN_MONTH } from './reference-data.js';
import { LONGEST_ROLLING_WINDOW } from './sku-stats.js';
import { isValidUpc } from './upc.js';

// One tiny but complete world (scale 0.05), seeded twice to show that it repeats exactly.
let database: Database;
let first: SeedSummary;
let firstHashes: Record<string, string>;
let second: SeedSummary;

/** Content hash of a table, rows in key order (locks and password hashes are left out: they are not deterministic). */
const HASHED: Record<string, string> = {
  skus: 'upc',
  modules: 'id',
  module_skus: 'module_id, upc',
  module_stars_zones: 'module_id, stars_zone',
  sku_month_stats: 'upc, month_id',
  sku_performance: 'upc, month_id, stars_zone, customer_segmentation',
  clusters: 'id',
  cluster_stores: 'cluster_pk, store_jda',
  cluster_modules: 'cluster_pk, module_name',
  stores: 'store_jda',
  suggested_cluster_modules: 'assortment_id, module_name',
  user_grants: 'user_id, grant_type, grant_code, permission_type',
  deletion_requests: 'id',
};

async function contentHashes(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, order] of Object.entries(HASHED)) {
    const [row] = await queryRows<{ h: string }>(database.db, sql.raw(`SELECT md5(string_agg(t::text, '|' ORDER BY ${order})) AS h FROM "${table}" t`));
    out[table] = row!.h;
  }
  return out;
}

const rows = <T>(query: string) => queryRows<T>(database.db, sql.raw(query));
const count = async (query: string) => Number((await rows<{ n: number }>(query))[0]!.n);

beforeAll(async () => {
  database = await testDatabase();
  await resetDatabase(database);
  first = await seedDemo(database, { scale: 0.05 });
  firstHashes = await contentHashes();
  await clearAllData(database);
  second = await seedDemo(database, { scale: 0.05 });
});

afterAll(async () => {
  await resetDatabase(database);
});

describe('demo data (scale 0.05)', () => {
  it('is the same world every time for the same seed and scale', async () => {
    expect(second.rows).toEqual(first.rows);
    expect(await contentHashes()).toEqual(firstHashes);
  });

  it('fills every table of the plan', () => {
    const empty = [
      'releases', 'months', 'brands', 'collections', 'planning_channels', 'stars_zones', 'countries',
      'customer_segmentations', 'stars_customers', 'stores', 'lias', 'client_classifications', 'templates',
      'lego_months', 'macro_families', 'rules', 'skus', 'modules', 'module_stars_zones', 'module_skus',
      'sku_month_stats', 'sku_performance', 'clusters', 'cluster_countries', 'cluster_stars_zones',
      'cluster_stores', 'cluster_lias', 'cluster_classifications', 'cluster_modules', 'suggested_clusters',
      'suggested_cluster_stores', 'suggested_cluster_modules', 'users', 'user_grants', 'allowed_emails',
      'locks', 'deletion_requests',
    ].filter((table) => !(second.rows[table]! > 0));
    expect(empty).toEqual([]);
    expect(second.totalRows).toBe(Object.values(second.rows).reduce((s, n) => s + n, 0));
  });

  it('tells that the database now has users', async () => {
    expect(await hasUsers(database)).toBe(true);
  });

  it('has 24 months, closed before M11_2026 and open from it, in two releases', async () => {
    const months = await rows<{ month_id: string; open: boolean; release_id: string }>('SELECT month_id, open, release_id FROM months ORDER BY year, month');
    expect(months).toHaveLength(24);
    expect(months[0]!.month_id).toBe('M01_2026');
    expect(months[23]!.month_id).toBe('M12_2027');
    expect(months.filter((m) => !m.open).map((m) => m.month_id)).toEqual(months.slice(0, 10).map((m) => m.month_id));
    expect(new Set(months.map((m) => `${m.open}:${m.release_id}`))).toEqual(new Set(['false:R2026', 'true:R2027']));
    expect(await rows('SELECT release_id, status FROM releases ORDER BY release_id')).toEqual([
      { release_id: 'R2026', status: 'CLOSED' },
      { release_id: 'R2027', status: 'OPEN' },
    ]);
  });

  it('gives every SKU a valid UPC and a release before or after 2023', async () => {
    const skus = await rows<{ upc: string; release_date: string }>('SELECT upc, release_date FROM skus');
    expect(skus.filter((s) => !isValidUpc(s.upc))).toEqual([]);
    expect(skus.some((s) => s.release_date < '2023-01-01')).toBe(true);
    expect(skus.some((s) => s.release_date >= '2023-01-01')).toBe(true);
  });

  it('keeps names, labels and descriptions within the product rules', async () => {
    const modules = await rows<{ module_name: string; module_label: string; module_description: string }>(
      'SELECT DISTINCT module_name, module_label, module_description FROM modules',
    );
    expect(modules.filter((m) => !/^[A-Za-z0-9_]{1,24}$/.test(m.module_name))).toEqual([]);
    expect(modules.filter((m) => !/^[A-Za-z0-9 ]{1,40}$/.test(m.module_label))).toEqual([]);
    expect(modules.filter((m) => m.module_description.length > 100)).toEqual([]);
    const clusters = await rows<{ cluster_id: string; cluster_label: string; cluster_description: string }>(
      'SELECT DISTINCT cluster_id, cluster_label, cluster_description FROM clusters',
    );
    expect(clusters.filter((c) => !/^[A-Za-z0-9_]{1,20}$/.test(c.cluster_id))).toEqual([]);
    expect(clusters.filter((c) => !/^[A-Za-z0-9 ]{1,40}$/.test(c.cluster_label))).toEqual([]);
    expect(clusters.filter((c) => c.cluster_description.length > 100)).toEqual([]);
    const labels = await rows<{ classification_label: string }>('SELECT classification_label FROM client_classifications');
    expect(labels.filter((l) => !/^[A-Z0-9_-]{1,15}$/.test(l.classification_label))).toEqual([]);
  });

  it('puts in each module only SKUs of its brand and collection, and in each cluster only modules of its month and brand', async () => {
    expect(await count(`SELECT count(*)::int AS n FROM module_skus ms JOIN modules m ON m.id = ms.module_id JOIN skus s ON s.upc = ms.upc
                        WHERE s.brand_code <> m.brand_code OR s.collection <> m.collection`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM cluster_modules cm JOIN clusters c ON c.id = cm.cluster_pk
                        WHERE NOT EXISTS (SELECT 1 FROM modules m WHERE m.module_name = cm.module_name AND m.month_id = c.month_id AND m.brand_code = c.brand_code)`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM cluster_stores cs JOIN clusters c ON c.id = cs.cluster_pk JOIN stores s ON s.store_jda = cs.store_jda
                        WHERE NOT EXISTS (SELECT 1 FROM cluster_countries cc WHERE cc.cluster_pk = c.id AND cc.country_code = s.country_code)`)).toBe(0);
  });

  it('gives every module the MH / EL counts of its lines not in the bin (kept by the line triggers, migration 0010)', async () => {
    expect(await count(`SELECT count(*)::int AS n FROM modules`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*)::int AS n FROM modules m
                        LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE s.must_have)::int AS mh, count(*) FILTER (WHERE NOT s.must_have)::int AS el
                                           FROM module_skus s WHERE s.module_id = m.id AND s.status <> 'REMOVED') c ON TRUE
                        WHERE m.mh_count <> c.mh OR m.el_count <> c.el`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM modules WHERE mh_count + el_count > 0`)).toBeGreaterThan(0);
  });

  it('carries module names over from month to month with drifting compositions', async () => {
    const recurring = await count(`SELECT count(*)::int AS n FROM (SELECT module_name FROM modules GROUP BY module_name HAVING count(*) >= 12) x`);
    expect(recurring).toBeGreaterThan(0);
    const statuses = await rows<{ status: string }>('SELECT DISTINCT status FROM module_skus ORDER BY status');
    expect(statuses.map((s) => s.status)).toEqual(['ADDED', 'NEW', 'REMOVED']);
    expect(await count(`SELECT count(*)::int AS n FROM module_skus WHERE status = 'REMOVED' AND previous_must_have IS NULL`)).toBe(0);
  });

  it('has the workflow states the screens show', async () => {
    expect(await count(`SELECT count(*)::int AS n FROM modules WHERE status = 'SUBMITTED' AND publication_date IS NULL`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM modules WHERE status = 'SUBMITTED'`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*)::int AS n FROM modules WHERE status = 'WIP'`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*)::int AS n FROM macro_families WHERE special_kind IN ('BEST_SELLER', 'NEWNESS')`)).toBe(2);
    // Every DELETION_PENDING item has its request, from a month not after its own.
    expect(await count(`SELECT count(*)::int AS n FROM modules m WHERE m.deletion_status = 'DELETION_PENDING' AND NOT EXISTS
                        (SELECT 1 FROM deletion_requests d JOIN months f ON f.month_id = d.delete_from_month_id JOIN months mm ON mm.month_id = m.month_id
                         WHERE d.item_type = 'module' AND d.item_key = m.module_name AND (f.year, f.month) <= (mm.year, mm.month))`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM modules WHERE deletion_status = 'DELETION_PENDING'`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*)::int AS n FROM locks l JOIN months m ON m.month_id = l.month_id WHERE NOT m.open`)).toBe(0);
    const suggested = await rows<{ status: string; with_message: number }>(
      `SELECT status, count(message)::int AS with_message FROM suggested_clusters GROUP BY status ORDER BY status`,
    );
    expect(suggested.map((s) => s.status)).toEqual(['PENDING', 'REJECTED']);
    expect(suggested.find((s) => s.status === 'REJECTED')!.with_message).toBeGreaterThan(0);
    const foTypes = await rows<{ fo_type: string }>('SELECT DISTINCT fo_type FROM suggested_cluster_modules ORDER BY fo_type');
    expect(foTypes.map((f) => f.fo_type)).toEqual(['NOT SWITCH', 'OTHER', 'SWITCH']);
  });

  it('gives tile figures to every SKU in a module, door index across all colour bands', async () => {
    expect(await count(`SELECT count(*)::int AS n FROM (SELECT DISTINCT upc FROM module_skus) u
                        WHERE (SELECT count(*) FROM sku_month_stats s WHERE s.upc = u.upc) <> 24`)).toBe(0);
    const bands = await rows<{ band: number }>(
      `SELECT DISTINCT CASE WHEN door_index <= 30 THEN 1 WHEN door_index <= 50 THEN 2 WHEN door_index <= 70 THEN 3 WHEN door_index <= 90 THEN 4 ELSE 5 END AS band
       FROM sku_month_stats ORDER BY band`,
    );
    expect(bands.map((b) => b.band)).toEqual([1, 2, 3, 4, 5]);
  });

  it('opens the month list on the current month M11_2026: the first open month', async () => {
    const open = await rows<{ month_id: string }>('SELECT month_id FROM months WHERE open ORDER BY year, month');
    expect(open[0]!.month_id).toBe('M11_2026');
    expect(FIRST_OPEN_MONTH).toBe('M11_2026');
  });

  it('has sales and performance facts over the rolling window that ends with every open month', async () => {
    const months = (await rows<{ month_id: string }>('SELECT month_id FROM months ORDER BY year, month')).map((m) => m.month_id);
    const open = (await rows<{ month_id: string }>('SELECT month_id FROM months WHERE open ORDER BY year, month')).map((m) => m.month_id);
    expect(open.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const monthId of open) {
      // The longest window the performance filters offer, within the months the demo has.
      const window = Array.from({ length: LONGEST_ROLLING_WINDOW }, (_, i) => addMonths(monthId, i - LONGEST_ROLLING_WINDOW + 1)).filter((m) => months.includes(m));
      const active = `SELECT ms.upc FROM module_skus ms JOIN modules m ON m.id = ms.module_id WHERE m.month_id = '${monthId}' AND ms.status <> 'REMOVED'`;
      const covered = await rows<{ month_id: string }>(`SELECT DISTINCT month_id FROM sku_performance WHERE upc IN (${active}) AND sell_out > 0`);
      for (const w of window) if (!covered.some((c) => c.month_id === w)) missing.push(`${monthId}: performance ${w}`);
      if ((await count(`SELECT count(*)::int AS n FROM sku_month_stats WHERE month_id = '${monthId}' AND upc IN (${active})`)) === 0) missing.push(`${monthId}: tile figures`);
    }
    expect(missing).toEqual([]);
    // Every module of an open month with SKUs shows facts for its own month (the end of its window).
    expect(await count(`SELECT count(*)::int AS n FROM modules m JOIN months mo ON mo.month_id = m.month_id AND mo.open
                        WHERE EXISTS (SELECT 1 FROM module_skus ms WHERE ms.module_id = m.id AND ms.status <> 'REMOVED')
                          AND NOT EXISTS (SELECT 1 FROM module_skus ms JOIN sku_performance p ON p.upc = ms.upc AND p.month_id = m.month_id
                                          WHERE ms.module_id = m.id AND ms.status <> 'REMOVED')`)).toBe(0);
  });

  describe('the publish showcase of every open month', () => {
    const openMonths = async () => (await rows<{ month_id: string }>('SELECT month_id FROM months WHERE open ORDER BY year, month')).map((m) => m.month_id);
    const unlocked = (type: string, key: string) =>
      `NOT EXISTS (SELECT 1 FROM locks l WHERE l.item_type = '${type}' AND l.item_key = ${key} AND l.month_id = c.month_id)`;
    const addedModules = `cluster_modules cm JOIN modules m ON m.module_name = cm.module_name AND m.month_id = c.month_id
                          WHERE cm.cluster_pk = c.id AND cm.status = 'ADDED'`;
    const disabledSku = `EXISTS (SELECT 1 FROM module_skus ms JOIN skus s ON s.upc = ms.upc WHERE ms.module_id = m.id AND ms.status <> 'REMOVED' AND s.sap_status IN ('Z', 'I'))`;

    it('has clusters that can be published as they stand, and the planning system accepts them', async () => {
      const found = await rows<{ month_id: string; cluster_id: string }>(
        `SELECT c.month_id, min(c.cluster_id) AS cluster_id FROM clusters c JOIN months mo ON mo.month_id = c.month_id AND mo.open
         WHERE c.status = 'WIP' AND c.deletion_status IS NULL AND ${unlocked('cluster', 'c.cluster_id')}
           AND EXISTS (SELECT 1 FROM cluster_stores s WHERE s.cluster_pk = c.id)
           AND EXISTS (SELECT 1 FROM ${addedModules})
           AND NOT EXISTS (SELECT 1 FROM ${addedModules} AND (m.status <> 'SUBMITTED' OR ${disabledSku}))
         GROUP BY c.month_id`,
      );
      expect(found.map((f) => f.month_id).sort()).toEqual((await openMonths()).sort());
      for (const f of found) {
        const payload = await clusterSnapshot(database.db, { itemType: 'cluster', itemKey: f.cluster_id, monthId: f.month_id });
        expect(planningSystemChecks({ itemType: 'cluster', itemKey: f.cluster_id, monthId: f.month_id, jobId: 0, payload: payload! })).toEqual([]);
      }
    });

    it('has a WIP cluster that a WIP module blocks', async () => {
      const found = await rows<{ month_id: string }>(
        `SELECT DISTINCT c.month_id FROM clusters c JOIN months mo ON mo.month_id = c.month_id AND mo.open
         WHERE c.status = 'WIP' AND c.deletion_status IS NULL AND ${unlocked('cluster', 'c.cluster_id')}
           AND EXISTS (SELECT 1 FROM ${addedModules} AND m.status = 'WIP')`,
      );
      expect(found.map((f) => f.month_id).sort()).toEqual((await openMonths()).sort());
    });

    it('has a WIP module with a SKU that SAP disabled (Z or I), which the planning system rejects', async () => {
      const found = await rows<{ month_id: string; module_name: string }>(
        `SELECT c.month_id, min(m.module_name) AS module_name FROM modules m JOIN months c ON c.month_id = m.month_id AND c.open
         WHERE m.status = 'WIP' AND m.deletion_status IS NULL AND ${unlocked('module', 'm.module_name')} AND ${disabledSku}
         GROUP BY c.month_id`,
      );
      expect(found.map((f) => f.month_id).sort()).toEqual((await openMonths()).sort());
      for (const f of found) {
        const payload = await moduleSnapshot(database.db, { itemType: 'module', itemKey: f.module_name, monthId: f.month_id });
        const errors = planningSystemChecks({ itemType: 'module', itemKey: f.module_name, monthId: f.month_id, jobId: 0, payload: payload! });
        expect(errors.some((e) => /disabled in SAP/.test(e))).toBe(true);
      }
      const statuses = await rows<{ sap_status: string }>(`SELECT DISTINCT sap_status FROM skus WHERE sap_status IS NOT NULL ORDER BY sap_status`);
      expect(statuses.map((s) => s.sap_status)).toEqual(['I', 'Z']);
    });
  });

  it('has the five demo accounts with their grants, password demo', async () => {
    const grants = await rows<{ username: string; role: string; status: string; grant_type: string; permission_type: string; codes: string }>(
      `SELECT u.username, u.role, u.status, g.grant_type, g.permission_type, string_agg(g.grant_code, ',' ORDER BY g.grant_code) AS codes
       FROM users u JOIN user_grants g USING (user_id) WHERE u.username IN ('admin', 'creator', 'editor', 'submitter', 'viewer')
       GROUP BY 1, 2, 3, 4, 5`,
    );
    const of = (username: string) =>
      Object.fromEntries(grants.filter((g) => g.username === username).map((g) => [`${g.grant_type}:${g.permission_type}`, g.codes]));
    const all = { brand: 'AUR,MRA,NRD,SLN,VLT', zone: 'APAC,EU,LATAM,MEA,NA' };
    const everything = {
      'brand:view': all.brand, 'brand:edit': all.brand, 'brand:submit': all.brand,
      'starszone:view': all.zone, 'starszone:edit': all.zone, 'starszone:submit': all.zone,
      'rule:edit': 'create,delete,import,reopen',
    };
    expect(of('admin')).toEqual(everything);
    expect(of('creator')).toEqual(everything);
    expect(of('editor')).toEqual({ 'brand:view': 'AUR,VLT', 'brand:edit': 'AUR,VLT', 'starszone:view': 'EU,NA', 'starszone:edit': 'EU,NA' });
    expect(of('submitter')).toEqual({
      'brand:view': 'AUR,NRD,SLN', 'brand:edit': 'AUR,NRD,SLN', 'brand:submit': 'AUR,NRD,SLN',
      'starszone:view': 'EU,LATAM', 'starszone:edit': 'EU,LATAM', 'starszone:submit': 'EU,LATAM',
    });
    expect(of('viewer')).toEqual({ 'brand:view': all.brand, 'starszone:view': all.zone });
    expect(new Set(grants.map((g) => `${g.username}:${g.role}:${g.status}`))).toEqual(
      new Set(['admin:ADMIN:Enabled', 'creator:CREATOR:Enabled', 'editor:EDITOR:Enabled', 'submitter:SUBMITTER:Enabled', 'viewer:VIEWER:Enabled']),
    );
    const others = await rows<{ status: string; role: string | null }>(
      `SELECT status, role FROM users WHERE username NOT IN ('admin', 'creator', 'editor', 'submitter', 'viewer') ORDER BY status`,
    );
    expect(others.map((u) => u.status)).toEqual(['Disabled', 'New', 'New']);
    expect(others.filter((u) => u.status === 'New').every((u) => u.role === null)).toBe(true);

    const [admin] = await rows<{ password_hash: string; email: string }>(`SELECT password_hash, email FROM users WHERE username = 'admin'`);
    expect(admin!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verify(admin!.password_hash, 'demo')).toBe(true);
    expect(await verify(admin!.password_hash, 'not-demo')).toBe(false);
    expect(await count(`SELECT count(*)::int AS n FROM allowed_emails a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.email = a.email)`)).toBeGreaterThanOrEqual(10);
    expect(await count(`SELECT count(*)::int AS n FROM users u WHERE NOT EXISTS (SELECT 1 FROM allowed_emails a WHERE a.email = u.email)`)).toBe(0);
  });

  it('lets the sequences continue after the seeded ids', async () => {
    const [user] = await rows<{ user_id: number }>(`INSERT INTO users (username, email) VALUES ('later', 'later@example.com') RETURNING user_id`);
    expect(user!.user_id).toBeGreaterThan(8);
    const [template] = await rows<{ template_id: number }>(`INSERT INTO templates (template_label, templates_type) VALUES ('Later', 'modulo') RETURNING template_id`);
    expect(template!.template_id).toBeGreaterThan(5);
  });
});
