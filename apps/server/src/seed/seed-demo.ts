/**
 * Loads the demo world (contract §4) into an empty, migrated database in one transaction:
 * all of it or nothing. The same seed and scale always give the same rows (apart from the password
 * hash, which is salted, and the lock times, which are the database clock).
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Database, type Queryable } from '../db/client.js';
import * as t from '../db/schema.js';
import { RULES, TEMPLATES } from '../db/product-data.js';
import { hashPassword } from '../auth/password.js';
import { BulkLoader, type BatchWriter, type WriterOptions } from './batch-writer.js';
import { chooseClusterDeletions, ClusterCompositions, generateClusterDefs, storesByCountry, writeClusters } from './clusters.js';
import { deferForeignKeyChecks, verifyForeignKeys } from './foreign-keys.js';
import { chooseLocks, writeDeletionRequests, writeLocks } from './locks-and-deletions.js';
import { chooseModuleDeletions, generateModuleDefs, modulesByMonthGroup, writeModules } from './modules.js';
import {
  BRANDS,
  buildCustomersAndStores,
  buildMonths,
  CLIENT_CLASSIFICATIONS,
  COLLECTIONS,
  COUNTRIES,
  CUSTOMER_SEGMENTATIONS,
  legoMonthRows,
  LIAS,
  MACRO_FAMILIES,
  PLANNING_CHANNELS,
  RELEASES,
  STARS_ZONES,
} from './reference-data.js';
import { generateSkus } from './skus.js';
import { writeSkuMonthStats, writeSkuPerformance } from './sku-stats.js';
import { planShowcase } from './showcase.js';
import { writeSuggestedClusters } from './suggested-clusters.js';
import { writeUsers } from './users.js';

export const DEFAULT_SEED = 2026;
const MAX_SCALE = 1000;

interface SeedOptions {
  /** 1 ≈ 4,000 SKUs, 400 stores, ~2,800 module-months; 100 ≈ 400,000 SKUs. Fractions (0.05) give a tiny complete world. */
  scale?: number;
  seed?: number;
  /** Password of every demo account (default 'demo'). */
  password?: string;
  /** Progress, one line per table or step. */
  log?: (message: string) => void;
}

export interface SeedSummary {
  seed: number;
  scale: number;
  /** Rows written per table. */
  rows: Record<string, number>;
  totalRows: number;
}

const REFERENCE_CREATED = new Date('2025-06-02T08:00:00Z');

/** Tables whose ids the seed sets itself: their sequences must continue after the seeded ids. */
const SEEDED_SEQUENCES: readonly [string, string][] = [
  ['modules', 'id'],
  ['clusters', 'id'],
  ['users', 'user_id'],
  ['client_classifications', 'classification_id'],
  ['templates', 'template_id'],
  ['deletion_requests', 'id'],
];

export async function seedDemo(database: Database, opts: SeedOptions = {}): Promise<SeedSummary> {
  const scale = opts.scale ?? 1;
  const seed = opts.seed ?? DEFAULT_SEED;
  if (!Number.isFinite(scale) || scale <= 0 || scale > MAX_SCALE) throw new RangeError(`scale must be above 0 and at most ${MAX_SCALE}`);
  if (!Number.isInteger(seed)) throw new RangeError('seed must be an integer');
  const log = opts.log ?? (() => undefined);

  // One hash for every demo account: argon2 is slow on purpose.
  const passwordHash = await hashPassword(opts.password ?? 'demo');
  const rows: Record<string, number> = {};

  await database.db.transaction(async (tx) => {
    const started = performance.now();
    const deferred = await deferForeignKeyChecks(tx);
    const loader = new BulkLoader(tx);
    const writer = <T extends PgTable>(table: T, opts?: WriterOptions<T>) => loader.writer(table, opts);
    const done = async (...writers: BatchWriter<PgTable>[]) => {
      for (const w of writers) {
        rows[w.tableName] = await w.finish();
        log(`${w.tableName}: ${w.rows.toLocaleString('en-US')} rows (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      }
    };

    /** Writes all these rows (and waits for them: later tables may refer to them). */
    const writeAll = async <T extends PgTable>(table: T, all: Iterable<T['$inferInsert']>) => {
      const w = writer(table);
      for (const row of all) await w.add(row);
      await w.finish();
      return w;
    };

    // Calendar and reference data
    const months = buildMonths();
    await done(
      await writeAll(t.releases, RELEASES),
      await writeAll(t.months, months),
      await writeAll(t.brands, BRANDS.map((b) => ({ brandCode: b.code, description: b.name }))),
      await writeAll(t.collections, COLLECTIONS.map((c) => ({ collectionCode: c.code, description: c.description }))),
      await writeAll(t.planningChannels, PLANNING_CHANNELS),
      await writeAll(t.starsZones, STARS_ZONES),
      await writeAll(t.countries, COUNTRIES),
      await writeAll(t.customerSegmentations, CUSTOMER_SEGMENTATIONS),
    );
    const { customers, stores } = buildCustomersAndStores(seed, scale);
    await done(
      await writeAll(t.starsCustomers, customers),
      await writeAll(t.stores, stores),
      await writeAll(t.lias, LIAS),
      await writeAll(
        t.clientClassifications,
        CLIENT_CLASSIFICATIONS.map((label, i) => ({ classificationId: i + 1, classificationLabel: label, createdAt: REFERENCE_CREATED, createdBy: 'admin' })),
      ),
      await writeAll(t.templates, TEMPLATES.map((tpl) => ({ ...tpl, columns: [...tpl.columns] }))),
      await writeAll(t.legoMonths, legoMonthRows(seed, months)),
      await writeAll(t.macroFamilies, MACRO_FAMILIES.map((f) => ({ macroFamily: f.name, specialKind: f.specialKind, createdAt: REFERENCE_CREATED }))),
      await writeAll(t.rules, RULES),
    );

    // The plan, in memory: products, modules, clusters, locks and the publish showcase (which sets
    // the SAP status of a few SKUs, so it comes before the SKUs are written).
    const groups = generateSkus(seed, scale);
    const moduleDefs = generateModuleDefs(seed, scale, groups);
    const deletedModules = chooseModuleDeletions(seed, scale, moduleDefs);
    const byMonthGroup = modulesByMonthGroup(moduleDefs);
    const clusterDefs = generateClusterDefs(seed, scale, stores);
    const deletedClusters = chooseClusterDeletions(seed, scale, clusterDefs);
    const compositions = new ClusterCompositions(byMonthGroup);
    const locks = chooseLocks(seed, scale, months, moduleDefs, clusterDefs);
    const showcase = planShowcase(seed, months, moduleDefs, clusterDefs, compositions, locks);
    log(`publish showcase: ${showcase.months.length} open months, ${showcase.changedSkus} SKU SAP statuses set (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    for (const s of showcase.months) {
      log(`  ${s.monthId}: publishable ${s.publishable.join(', ')}; blocked ${s.blocked.clusterId} (WIP ${s.blocked.moduleName}); SAP ${s.sapDisabled.sapStatus} ${s.sapDisabled.upc} in ${s.sapDisabled.moduleName}`);
    }

    // Products
    await done(await writeAll(t.skus, groups.flatMap((g) => g.skus.map((sku) => sku.row))));

    // Modules with their zones and compositions
    const moduleWriters = {
      // The line counts are the line triggers' (migration 0010): they add each batch of lines to its modules.
      modules: writer(t.modules, { omit: ['mhCount', 'elCount'] }),
      moduleStarsZones: writer(t.moduleStarsZones),
      moduleSkus: writer(t.moduleSkus, { batchSize: 20_000 }),
    };
    moduleWriters.moduleStarsZones.after(moduleWriters.modules);
    moduleWriters.moduleSkus.after(moduleWriters.modules);
    const written = await writeModules(seed, months, moduleDefs, showcase.moduleStatus, moduleWriters);
    await done(moduleWriters.modules, moduleWriters.moduleStarsZones, moduleWriters.moduleSkus);

    // Sales figures of the SKUs in modules
    const stats = writer(t.skuMonthStats, { batchSize: 20_000 });
    await writeSkuMonthStats(seed, groups, months, written.skuZones, stats);
    await done(stats);
    const performanceRows = writer(t.skuPerformance, { batchSize: 25_000 });
    const window = await writeSkuPerformance(seed, scale, groups, months, written.skuZones, performanceRows);
    await done(performanceRows);
    log(`sku_performance covers ${window[0]!.monthId} to ${window[window.length - 1]!.monthId}`);

    // Clusters and suggestions
    const clusters = writer(t.clusters);
    const clusterWriters = {
      clusters,
      clusterCountries: writer(t.clusterCountries).after(clusters),
      clusterStarsZones: writer(t.clusterStarsZones).after(clusters),
      clusterStores: writer(t.clusterStores, { batchSize: 20_000 }).after(clusters),
      clusterLias: writer(t.clusterLias).after(clusters),
      clusterClassifications: writer(t.clusterClassifications).after(clusters),
      clusterModules: writer(t.clusterModules, { batchSize: 20_000 }).after(clusters),
    };
    await writeClusters(seed, months, clusterDefs, compositions, showcase.clusterWip, clusterWriters);
    await done(...Object.values(clusterWriters));

    const suggested = writer(t.suggestedClusters);
    const suggestionWriters = {
      suggestedClusters: suggested,
      suggestedClusterStores: writer(t.suggestedClusterStores).after(suggested),
      suggestedClusterModules: writer(t.suggestedClusterModules).after(suggested),
    };
    await writeSuggestedClusters(seed, scale, months, storesByCountry(stores), clusterDefs, byMonthGroup, suggestionWriters);
    await done(...Object.values(suggestionWriters));

    // People, locks and deletions
    const users = writer(t.users);
    const userWriters = { users, userGrants: writer(t.userGrants).after(users), allowedEmails: writer(t.allowedEmails) };
    await writeUsers(passwordHash, userWriters);
    await done(...Object.values(userWriters));

    const lockRows = writer(t.locks, { omit: ['acquiredAt', 'renewedAt'] });
    await writeLocks(locks, lockRows);
    const deletions = writer(t.deletionRequests);
    await writeDeletionRequests(months, deletedModules, deletedClusters, deletions);
    await done(lockRows, deletions);

    await continueSequences(tx);
    // The items' first versions (docs/versions.md): the version triggers are off while the demo loads.
    await tx.execute(sql`SELECT record_baseline_versions()`);
    if (deferred) {
      const checked = await verifyForeignKeys(tx);
      log(`${checked} foreign keys checked (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  });

  await database.execScript('ANALYZE');
  log('statistics updated (ANALYZE)');
  const totalRows = Object.values(rows).reduce((s, n) => s + n, 0);
  return { seed, scale, rows, totalRows };
}

async function continueSequences(db: Queryable): Promise<void> {
  for (const [table, column] of SEEDED_SEQUENCES) {
    await db.execute(
      sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT COALESCE(MAX("${column}"), 0) + 1 FROM "${table}"), false)`),
    );
  }
}

/** True when the database holds any account (then the demo data must not be loaded over it). */
export async function hasUsers(database: Database): Promise<boolean> {
  const found = await queryRows<{ one: number }>(database.db, sql`SELECT 1 AS one FROM users LIMIT 1`);
  return found.length > 0;
}

/** Empties every table but the migration record and the server's own settings (signing secret). */
export async function clearAllData(database: Database): Promise<void> {
  const tables = await queryRows<{ tablename: string }>(
    database.db,
    sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('schema_migrations', 'server_settings')`,
  );
  if (tables.length === 0) return;
  await database.execScript(`TRUNCATE ${tables.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
}
