import { and, asc, eq, getTableColumns, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ItemScope } from '@bo/shared/permissions';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { preparedOnce, type Queryable } from '../../db/client.js';
import {
  clientClassifications,
  clusterClassifications,
  clusterCountries,
  clusterLias,
  clusterModules,
  clusters,
  clusterStarsZones,
  clusterStores,
  countries,
  legoMonths,
  lias,
  modules,
  moduleSkus,
  months,
  stores,
} from '../../db/schema.js';
import { activeSkuCounts } from '../module/modules.repository.js';
import { monthStates } from '../lifecycle/months.repository.js';
import { gateColumns, itemScopes } from '../lifecycle/item-gate.repository.js';
import { clusterKeyString } from '@bo/shared/item-keys';
import { liveLocks, type LockTtl } from '../../lib/locks.repository.js';

export type ClusterRow = typeof clusters.$inferSelect;

type Results<T extends readonly (() => Promise<unknown>)[]> = { -readonly [K in keyof T]: T[K] extends () => Promise<infer R> ? R : never };

/**
 * Runs independent queries side by side on the pool, but one after the other inside a transaction:
 * a transaction is one connection, and node-postgres refuses overlapping queries on one connection.
 */
export async function together<T extends readonly (() => Promise<unknown>)[]>(db: Queryable, tasks: readonly [...T]): Promise<Results<T>> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(tasks.map((t) => t()))) as Results<T>;
  const out: unknown[] = [];
  for (const t of tasks) out.push(await t());
  return out as Results<T>;
}
export interface ClusterRef {
  clusterId: string;
  monthId: string;
}

export const clusterRefKey = clusterKeyString;

/**
 * The live (not deleted) cluster rows of these keys' ids and months: a superset of the keys (every id × every month),
 * which the callers narrow to the keys themselves.
 */
const liveClustersOf = (refs: readonly ClusterRef[]): SQL | undefined =>
  and(
    inArray(clusters.clusterId, [...new Set(refs.map((r) => r.clusterId))]),
    inArray(clusters.monthId, [...new Set(refs.map((r) => r.monthId))]),
    isNull(clusters.deletionStatus),
  );

/** One cluster's live row by its key, its id and month given as the placeholders `clusterId` and `monthId`. */
const oneLiveCluster = and(eq(clusters.clusterId, sql.placeholder('clusterId')), eq(clusters.monthId, sql.placeholder('monthId')), isNull(clusters.deletionStatus));

const clusterRowsWhere = (db: Queryable, where: SQL | undefined) => db.select().from(clusters).where(where).orderBy(asc(clusters.id));
// The builders of `preparedOnce`, one function each (it keeps a statement built by a builder for that builder).
const oneCluster = (d: Queryable) => clusterRowsWhere(d, oneLiveCluster);
const oneClusterForUpdate = (d: Queryable) => clusterRowsWhere(d, oneLiveCluster).for('update');

/** Live (not deleted) cluster rows for the keys, ordered by id. `forUpdate` locks them (in id order: no deadlocks). */
export async function findClusters(db: Queryable, refs: readonly ClusterRef[], forUpdate = false): Promise<ClusterRow[]> {
  if (refs.length === 0) return [];
  // One cluster (opened, locked for a save): a statement built once (`preparedOnce`), its row found by its key.
  if (refs.length === 1) {
    const { clusterId, monthId } = refs[0]!;
    return forUpdate
      ? preparedOnce(db, 'cluster_row_for_update', oneClusterForUpdate, { clusterId, monthId })
      : preparedOnce(db, 'cluster_row', oneCluster, { clusterId, monthId });
  }
  const wanted = new Set(refs.map(clusterRefKey));
  const q = clusterRowsWhere(db, liveClustersOf(refs));
  const rows = forUpdate ? await q.for('update') : await q;
  return rows.filter((r) => wanted.has(clusterRefKey(r)));
}

/** The row of (clusterId, monthId) whatever its deletion state (copy revives fully deleted rows). */
export async function findClusterAnyState(db: Queryable, ref: ClusterRef, forUpdate = false): Promise<ClusterRow | undefined> {
  const q = db
    .select()
    .from(clusters)
    .where(and(eq(clusters.clusterId, ref.clusterId), eq(clusters.monthId, ref.monthId)));
  const rows = forUpdate ? await q.for('update') : await q;
  return rows[0];
}

/** Countries of each cluster, sorted. */
export async function clusterCountryCodes(db: Queryable, pks: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (pks.length === 0) return out;
  const rows = await db
    .select({ clusterPk: clusterCountries.clusterPk, countryCode: clusterCountries.countryCode })
    .from(clusterCountries)
    .where(inArray(clusterCountries.clusterPk, [...pks]))
    .orderBy(asc(clusterCountries.countryCode));
  for (const r of rows) out.set(r.clusterPk, [...(out.get(r.clusterPk) ?? []), r.countryCode]);
  return out;
}

/**
 * In SQL: the stars zones of the cluster whose id is `clusterPk`, sorted, each once: those of its countries (its
 * permission scope, docs/LIFECYCLE.md). An empty array when it has no country.
 */
export const clusterZonesArray = (clusterPk: SQL): SQL =>
  sql`ARRAY(SELECT DISTINCT co.stars_zone FROM cluster_countries cc JOIN countries co ON co.country_code = cc.country_code
             WHERE cc.cluster_pk = ${clusterPk} ORDER BY co.stars_zone)`;

/** A cluster's permission scope: its brand and the stars zones of its countries (docs/LIFECYCLE.md). */
export function clusterScopes(db: Queryable, rows: readonly ClusterRow[]): Promise<Map<number, ItemScope>> {
  return itemScopes(db, clusterZonesArray, rows);
}

const gatedClustersWhere = (db: Queryable, where: SQL | undefined, ttlMinutes: LockTtl) =>
  db
    .select({ ...getTableColumns(clusters), ...gateColumns({ type: 'cluster', zonesOf: clusterZonesArray }, 'clusters', 'cluster_id', ttlMinutes) })
    .from(clusters)
    .where(where)
    .orderBy(asc(clusters.id));

const oneClusterGated = (d: Queryable) => gatedClustersWhere(d, oneLiveCluster, sql.placeholder('ttlMinutes'));

/**
 * `findClusters` with each row's permission scope and gate (item-gate.repository's `gateColumns`), in one statement
 * (the lock path).
 */
export async function findClustersGated(db: Queryable, refs: readonly ClusterRef[], ttlMinutes: number) {
  if (refs.length === 0) return [];
  if (refs.length === 1) {
    const { clusterId, monthId } = refs[0]!;
    return preparedOnce(db, 'cluster_row_gated', oneClusterGated, { clusterId, monthId, ttlMinutes });
  }
  return gatedClustersWhere(db, liveClustersOf(refs), ttlMinutes);
}

/** Open months in which each cluster id exists (not deleted). */
export async function openMonthsOfClusters(db: Queryable, clusterIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (clusterIds.length === 0) return out;
  const rows = await db
    .select({ clusterId: clusters.clusterId, monthId: clusters.monthId })
    .from(clusters)
    .innerJoin(months, eq(months.monthId, clusters.monthId))
    .where(and(inArray(clusters.clusterId, [...new Set(clusterIds)]), isNull(clusters.deletionStatus), eq(months.open, true)));
  for (const r of rows) out.set(r.clusterId, [...(out.get(r.clusterId) ?? []), r.monthId]);
  return out;
}

export interface ClusterModuleRow {
  clusterPk: number;
  moduleName: string;
  status: string;
  moduleLabel: string;
  macroFamily: string;
  brand: string;
  monthId: string;
  moduleStatus: string;
}

/**
 * The cluster's modules that exist (not deleted) in the cluster's month. A cluster row naming a module
 * that is gone is left out: nothing can be shown, published or counted for it.
 */
export async function clusterModuleRows(db: Queryable, pks: readonly number[]): Promise<ClusterModuleRow[]> {
  if (pks.length === 0) return [];
  return db
    .select({
      clusterPk: clusterModules.clusterPk,
      moduleName: clusterModules.moduleName,
      status: clusterModules.status,
      moduleLabel: modules.moduleLabel,
      macroFamily: modules.macroFamily,
      brand: modules.brandCode,
      monthId: modules.monthId,
      moduleStatus: modules.status,
    })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .innerJoin(
      modules,
      and(eq(modules.moduleName, clusterModules.moduleName), eq(modules.monthId, clusters.monthId), isNull(modules.deletionStatus)),
    )
    .where(inArray(clusterModules.clusterPk, [...pks]))
    .orderBy(asc(clusterModules.clusterPk), asc(modules.macroFamily), asc(modules.moduleLabel), asc(modules.moduleName));
}

/** Live modules of a month among `names`, with their brand and status. */
export async function liveModulesInMonth(db: Queryable, monthId: string, names: readonly string[]) {
  if (names.length === 0) return new Map<string, { brandCode: string; status: string }>();
  const rows = await db
    .select({ moduleName: modules.moduleName, brandCode: modules.brandCode, status: modules.status })
    .from(modules)
    .where(and(eq(modules.monthId, monthId), inArray(modules.moduleName, [...new Set(names)]), isNull(modules.deletionStatus)));
  return new Map(rows.map((r) => [r.moduleName, { brandCode: r.brandCode, status: r.status }]));
}

/** What a cluster holds now: for save summaries, duplicate checks and "did the body change anything". */
export interface ClusterContent {
  description: string;
  /** moduleName → ADDED | REMOVED (all rows, also those naming modules that are gone). */
  modules: Map<string, string>;
  lias: Set<string>;
  classifications: Set<number>;
}

export async function clusterContents(db: Queryable, rows: readonly ClusterRow[]): Promise<Map<number, ClusterContent>> {
  const out = new Map<number, ClusterContent>();
  if (rows.length === 0) return out;
  const pks = rows.map((r) => r.id);
  for (const r of rows) out.set(r.id, { description: r.clusterDescription, modules: new Map(), lias: new Set(), classifications: new Set() });
  const [mods, ls, cls] = await together(db, [
    () => db.select().from(clusterModules).where(inArray(clusterModules.clusterPk, pks)),
    () => db.select().from(clusterLias).where(inArray(clusterLias.clusterPk, pks)),
    () => db.select().from(clusterClassifications).where(inArray(clusterClassifications.clusterPk, pks)),
  ]);
  for (const m of mods) out.get(m.clusterPk)!.modules.set(m.moduleName, m.status);
  for (const l of ls) out.get(l.clusterPk)!.lias.add(l.liaCode);
  for (const c of cls) out.get(c.clusterPk)!.classifications.add(c.classificationId);
  return out;
}

/** Writes a cluster row's own fields and bumps its version by one. */
export async function updateClusterRow(
  db: Queryable,
  pk: number,
  values: Pick<typeof clusters.$inferInsert, 'clusterDescription' | 'status' | 'updatedAt' | 'updatedBy'>,
): Promise<void> {
  await db
    .update(clusters)
    .set({ ...values, version: sql`${clusters.version} + 1` })
    .where(eq(clusters.id, pk));
}

export async function replaceClusterModules(db: Queryable, pk: number, list: readonly { moduleName: string; status: string }[]) {
  await db.delete(clusterModules).where(eq(clusterModules.clusterPk, pk));
  if (list.length) await db.insert(clusterModules).values(list.map((m) => ({ clusterPk: pk, moduleName: m.moduleName, status: m.status })));
}

export async function replaceClusterLias(db: Queryable, pk: number, codes: readonly string[]) {
  await db.delete(clusterLias).where(eq(clusterLias.clusterPk, pk));
  if (codes.length) await db.insert(clusterLias).values(codes.map((liaCode) => ({ clusterPk: pk, liaCode })));
}

export async function replaceClusterClassifications(db: Queryable, pk: number, ids: readonly number[]) {
  await db.delete(clusterClassifications).where(eq(clusterClassifications.clusterPk, pk));
  if (ids.length) await db.insert(clusterClassifications).values(ids.map((classificationId) => ({ clusterPk: pk, classificationId })));
}

export async function replaceClusterCountries(db: Queryable, pk: number, codes: readonly string[]) {
  await db.delete(clusterCountries).where(eq(clusterCountries.clusterPk, pk));
  if (codes.length) await db.insert(clusterCountries).values(codes.map((countryCode) => ({ clusterPk: pk, countryCode })));
}

export async function replaceClusterZones(db: Queryable, pk: number, zones: readonly string[]) {
  await db.delete(clusterStarsZones).where(eq(clusterStarsZones.clusterPk, pk));
  if (zones.length) await db.insert(clusterStarsZones).values(zones.map((starsZone) => ({ clusterPk: pk, starsZone })));
}

export async function replaceClusterStores(db: Queryable, pk: number, storeJdas: readonly string[]) {
  await db.delete(clusterStores).where(eq(clusterStores.clusterPk, pk));
  if (storeJdas.length) await db.insert(clusterStores).values(storeJdas.map((storeJda) => ({ clusterPk: pk, storeJda })));
}

/** The child rows copied with a cluster (copy to another month). */
export async function clusterChildren(db: Queryable, pk: number) {
  const [cs, zs, ss] = await together(db, [
    () => db.select({ v: clusterCountries.countryCode }).from(clusterCountries).where(eq(clusterCountries.clusterPk, pk)),
    () => db.select({ v: clusterStarsZones.starsZone }).from(clusterStarsZones).where(eq(clusterStarsZones.clusterPk, pk)),
    () => db.select({ v: clusterStores.storeJda }).from(clusterStores).where(eq(clusterStores.clusterPk, pk)),
  ]);
  return { countries: cs.map((r) => r.v), zones: zs.map((r) => r.v), stores: ss.map((r) => r.v) };
}

/**
 * Live clusters of the given (monthId, brand) pairs with their ADDED modules that exist in the month
 * (for the duplicate check before publishing).
 */
export async function addedModuleSets(db: Queryable, pairs: readonly { monthId: string; brandCode: string }[]) {
  const out = new Map<number, { clusterId: string; monthId: string; brandCode: string; modules: Set<string> }>();
  if (pairs.length === 0) return out;
  const cond = or(...pairs.map((p) => and(eq(clusters.monthId, p.monthId), eq(clusters.brandCode, p.brandCode))));
  const rows = await db
    .select({ pk: clusters.id, clusterId: clusters.clusterId, monthId: clusters.monthId, brandCode: clusters.brandCode, moduleName: modules.moduleName })
    .from(clusters)
    .leftJoin(clusterModules, and(eq(clusterModules.clusterPk, clusters.id), eq(clusterModules.status, 'ADDED')))
    .leftJoin(
      modules,
      and(eq(modules.moduleName, clusterModules.moduleName), eq(modules.monthId, clusters.monthId), isNull(modules.deletionStatus)),
    )
    .where(and(cond, isNull(clusters.deletionStatus)));
  for (const r of rows) {
    let entry = out.get(r.pk);
    if (!entry) out.set(r.pk, (entry = { clusterId: r.clusterId, monthId: r.monthId, brandCode: r.brandCode, modules: new Set() }));
    if (r.moduleName) entry.modules.add(r.moduleName);
  }
  return out;
}

/** Where a store is: its country, planning channel and stars zone (its country's), read with `stores` and `countries` joined. */
export const STORE_PLACE_COLUMNS = { countryCode: stores.countryCode, planningChannelId: stores.planningChannelId, starsZone: countries.starsZone };

/** Stores of clusters with the fields the cluster answer, the planning system and the exports need (a store's stars zone is its country's). */
export async function clusterStoreRows(db: Queryable, pks: readonly number[]) {
  if (pks.length === 0) return [];
  return db
    .select({
      clusterPk: clusterStores.clusterPk,
      storeJda: stores.storeJda,
      codiceStoreSap: stores.codiceStoreSap,
      name: stores.name,
      starsCustomer: stores.starsCustomer,
      customerSegmentation: stores.customerSegmentation,
      ...STORE_PLACE_COLUMNS,
    })
    .from(clusterStores)
    .innerJoin(stores, eq(stores.storeJda, clusterStores.storeJda))
    .innerJoin(countries, eq(countries.countryCode, stores.countryCode))
    .where(inArray(clusterStores.clusterPk, [...pks]))
    .orderBy(asc(clusterStores.clusterPk), asc(stores.storeJda));
}

/** Distinct active (not REMOVED) SKUs over each cluster's ADDED, live modules. */
async function totalSkus(db: Queryable, pks: readonly number[]): Promise<Map<number, number>> {
  if (pks.length === 0) return new Map();
  const rows = await db
    .select({ clusterPk: clusterModules.clusterPk, total: sql<number>`count(DISTINCT ${moduleSkus.upc})::int` })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .innerJoin(
      modules,
      and(eq(modules.moduleName, clusterModules.moduleName), eq(modules.monthId, clusters.monthId), isNull(modules.deletionStatus)),
    )
    .innerJoin(moduleSkus, and(eq(moduleSkus.moduleId, modules.id), ne(moduleSkus.status, 'REMOVED')))
    .where(and(inArray(clusterModules.clusterPk, [...pks]), eq(clusterModules.status, 'ADDED')))
    .groupBy(clusterModules.clusterPk);
  return new Map(rows.map((r) => [r.clusterPk, Number(r.total)]));
}

/** Each cluster module's active SKUs (not REMOVED) in the cluster's month: must-have and eligible counts, by `clusterPk|moduleName`. */
async function clusterModuleSkuCounts(db: Queryable, pks: readonly number[]): Promise<Map<string, { mh: number; el: number }>> {
  if (pks.length === 0) return new Map();
  const rows = await db
    .select({ clusterPk: clusterModules.clusterPk, moduleName: clusterModules.moduleName, moduleId: modules.id })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .innerJoin(
      modules,
      and(eq(modules.moduleName, clusterModules.moduleName), eq(modules.monthId, clusters.monthId), isNull(modules.deletionStatus)),
    )
    .where(inArray(clusterModules.clusterPk, [...pks]));
  const counts = await activeSkuCounts(
    db,
    rows.map((r) => r.moduleId),
  );
  return new Map(rows.map((r) => [`${r.clusterPk}|${r.moduleName}`, counts.get(r.moduleId) ?? { mh: 0, el: 0 }]));
}

/**
 * Everything a cluster answer reads beside its row, for many clusters with a fixed number of queries: countries, zones,
 * stores, LIAs (its own and every LIA), classifications, modules with their counts, SKU totals, live locks, month states,
 * lego months and the months each cluster is in.
 */
export async function clusterAnswerRows(db: Queryable, rows: readonly ClusterRow[], lockTtlMinutes: number) {
  const pks = rows.map((r) => r.id);
  const monthIds = [...new Set(rows.map((r) => r.monthId))];
  const [countryMap, zoneRows, storeRows, liaRows, classRows, moduleRows, skuTotals, lockMap, states, lego, presence, allLias, skuCounts] = await together(db, [
    () => clusterCountryCodes(db, pks),
    () => db.select().from(clusterStarsZones).where(inArray(clusterStarsZones.clusterPk, pks)).orderBy(asc(clusterStarsZones.starsZone)),
    () => clusterStoreRows(db, pks),
    () => db.select().from(clusterLias).where(inArray(clusterLias.clusterPk, pks)),
    () =>
      db
        .select({ clusterPk: clusterClassifications.clusterPk, classificationId: clientClassifications.classificationId, label: clientClassifications.classificationLabel })
        .from(clusterClassifications)
        .innerJoin(clientClassifications, eq(clientClassifications.classificationId, clusterClassifications.classificationId))
        .where(inArray(clusterClassifications.clusterPk, pks))
        .orderBy(asc(clientClassifications.classificationLabel)),
    () => clusterModuleRows(db, pks),
    () => totalSkus(db, pks),
    () => liveLocks(db, 'cluster', rows.map((r) => ({ itemKey: r.clusterId, monthId: r.monthId })), lockTtlMinutes),
    () => monthStates(db, monthIds),
    () => db.select().from(legoMonths).where(inArray(legoMonths.monthId, monthIds)),
    () => openMonthsOfClusters(db, rows.map((r) => r.clusterId)),
    () => db.select().from(lias).orderBy(asc(lias.liaCode)),
    () => clusterModuleSkuCounts(db, pks),
  ]);

  return { countryMap, zoneRows, storeRows, liaRows, classRows, moduleRows, skuTotals, lockMap, states, lego, presence, allLias, skuCounts };
}

/** Every live row of a cluster, in any month, ordered by id. */
export async function liveClusterVersions(db: Queryable, clusterId: string): Promise<ClusterRow[]> {
  return db
    .select()
    .from(clusters)
    .where(and(eq(clusters.clusterId, clusterId), isNull(clusters.deletionStatus)))
    .orderBy(asc(clusters.id));
}
