/** SQL of the working area: SKU search, performance facts, clusters of modules, newness. */
import { and, asc, eq, exists, gt, gte, ilike, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ProductDto } from '@bo/shared/modules';
import type { ActiveSkuSearch } from '@bo/shared/working-area';
import type { Queryable } from '../../db/client.js';
import { toProductDto as toModuleProductDto } from '../../items/module/module.presenter.js';
import {
  clusterModules,
  clusters,
  clusterStores,
  countries,
  moduleSkus,
  modules,
  skuMonthStats,
  skuPerformance,
  skus,
  starsCustomers,
  stores,
} from '../../db/schema.js';

type SkuRow = typeof skus.$inferSelect;
type StatsRow = typeof skuMonthStats.$inferSelect;

/** A SKU as a module line that is not in any module yet (Active SKUs search, drag into a module). */
export function toProductDto(sku: SkuRow, st: StatsRow | undefined): ProductDto {
  return toModuleProductDto(sku, st);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (text: string) => `%${escapeLike(text)}%`;

/** What the performance filters keep: the rolling window ending with the month, the zones and the (zone|segmentation) cells (null: all). */
export interface PerformanceScope {
  window: string[];
  zones: string[] | null;
  cells: Set<string> | null;
}

/** Active SKUs (not deleted) matching the search; `limit` rows at most (the caller asks one more to detect overflow). */
export async function searchSkus(
  db: Queryable,
  q: ActiveSkuSearch,
  limit: number,
  sold: PerformanceScope | null = null,
): Promise<SkuRow[]> {
  const where: SQL[] = [eq(skus.deleted, false)];
  if (q.model) where.push(ilike(skus.model, contains(q.model)));
  if (q.color) where.push(ilike(skus.color, contains(q.color)));
  if (q.size) where.push(ilike(skus.size, contains(q.size)));
  if (q.upc) where.push(ilike(skus.upc, contains(q.upc)));
  if (q.brand?.length) where.push(inArray(skus.brandCode, q.brand));
  if (q.collection?.length) where.push(inArray(skus.collection, q.collection));
  if (q.planningChannel?.length) where.push(inArray(skus.planningChannelId, q.planningChannel));
  if (q.priceMin != null) where.push(gte(skus.srp, q.priceMin));
  if (q.priceMax != null) where.push(lte(skus.srp, q.priceMax));
  if (q.legoClassDes?.length) where.push(inArray(skus.legoClass, q.legoClassDes));
  if (q.moduleList?.length) {
    const inModules = db
      .select({ upc: moduleSkus.upc })
      .from(moduleSkus)
      .innerJoin(modules, eq(modules.id, moduleSkus.moduleId))
      .where(
        and(
          inArray(modules.moduleName, q.moduleList),
          q.monthId ? eq(modules.monthId, q.monthId) : undefined,
          ne(moduleSkus.status, 'REMOVED'),
          isNull(modules.deletionStatus),
        ),
      );
    where.push(inArray(skus.upc, inModules));
  }
  if (sold) {
    const cell = sql`${skuPerformance.starsZone} || '|' || ${skuPerformance.customerSegmentation}`;
    const sales = db
      .select({ one: sql`1` })
      .from(skuPerformance)
      .where(
        and(
          eq(skuPerformance.upc, skus.upc),
          inArray(skuPerformance.monthId, [...sold.window]),
          gt(skuPerformance.sellOut, 0),
          sold.zones ? inArray(skuPerformance.starsZone, [...sold.zones]) : undefined,
          sold.cells ? inArray(cell, [...sold.cells]) : undefined,
        ),
      );
    where.push(exists(sales));
  }
  return db
    .select()
    .from(skus)
    .where(and(...where))
    .orderBy(asc(skus.model), asc(skus.color), asc(skus.size), asc(skus.upc))
    .limit(limit);
}

export async function statsFor(db: Queryable, upcs: readonly string[], monthId: string): Promise<Map<string, StatsRow>> {
  const out = new Map<string, StatsRow>();
  for (let i = 0; i < upcs.length; i += 5000) {
    const rows = await db
      .select()
      .from(skuMonthStats)
      .where(and(inArray(skuMonthStats.upc, upcs.slice(i, i + 5000)), eq(skuMonthStats.monthId, monthId)));
    for (const r of rows) out.set(r.upc, r);
  }
  return out;
}

export async function skusByUpc(db: Queryable, upcs: readonly string[]): Promise<Map<string, SkuRow>> {
  const out = new Map<string, SkuRow>();
  for (let i = 0; i < upcs.length; i += 5000) {
    for (const r of await db.select().from(skus).where(inArray(skus.upc, upcs.slice(i, i + 5000)))) out.set(r.upc, r);
  }
  return out;
}

export interface PerformanceFact {
  upc: string;
  monthId: string;
  starsZone: string;
  customerSegmentation: string;
  numDoor: number;
  sellIn: number;
  sellOut: number;
}

/** Performance facts of these SKUs in these months, optionally narrowed to zones and (zone, segmentation) pairs. */
export async function performanceFacts(
  db: Queryable,
  upcs: readonly string[],
  monthIds: readonly string[],
  zones: readonly string[] | null,
): Promise<PerformanceFact[]> {
  if (upcs.length === 0) return [];
  const out: PerformanceFact[] = [];
  for (let i = 0; i < upcs.length; i += 5000) {
    const rows = await db
      .select({
        upc: skuPerformance.upc,
        monthId: skuPerformance.monthId,
        starsZone: skuPerformance.starsZone,
        customerSegmentation: skuPerformance.customerSegmentation,
        numDoor: skuPerformance.numDoor,
        sellIn: skuPerformance.sellIn,
        sellOut: skuPerformance.sellOut,
      })
      .from(skuPerformance)
      .where(
        and(
          inArray(skuPerformance.upc, upcs.slice(i, i + 5000)),
          inArray(skuPerformance.monthId, [...monthIds]),
          zones ? inArray(skuPerformance.starsZone, [...zones]) : undefined,
        ),
      );
    out.push(...rows);
  }
  return out;
}

/** Zones of countries given by name or code. */
export async function zonesOfCountries(db: Queryable, names: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectDistinct({ zone: countries.starsZone })
    .from(countries)
    .where(or(inArray(countries.name, [...names]), inArray(countries.countryCode, [...names])));
  return rows.map((r) => r.zone);
}

/** The (zone, segmentation) pairs where the chosen customers have stores. */
export async function customerCells(
  db: Queryable,
  f: { customers: readonly string[]; channels: readonly string[] },
): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ zone: countries.starsZone, segmentation: stores.customerSegmentation })
    .from(stores)
    .innerJoin(starsCustomers, eq(starsCustomers.customerCode, stores.starsCustomer))
    .innerJoin(countries, eq(countries.countryCode, stores.countryCode))
    .where(
      and(
        f.customers.length ? or(inArray(starsCustomers.customerCode, [...f.customers]), inArray(starsCustomers.name, [...f.customers])) : undefined,
        f.channels.length ? inArray(starsCustomers.distributionChannel, [...f.channels]) : undefined,
      ),
    );
  return new Set(rows.map((r) => `${r.zone}|${r.segmentation}`));
}

export interface LineRow {
  moduleName: string;
  monthId: string;
  upc: string;
  mustHave: boolean;
  status: string;
}

/** Saved composition lines (not removed) of modules by name in some months. */
export async function activeLines(db: Queryable, names: readonly string[], monthIds: readonly string[]): Promise<LineRow[]> {
  if (names.length === 0 || monthIds.length === 0) return [];
  return db
    .select({ moduleName: modules.moduleName, monthId: modules.monthId, upc: moduleSkus.upc, mustHave: moduleSkus.mustHave, status: moduleSkus.status })
    .from(moduleSkus)
    .innerJoin(modules, eq(modules.id, moduleSkus.moduleId))
    .where(
      and(
        inArray(modules.moduleName, [...names]),
        inArray(modules.monthId, [...monthIds]),
        isNull(modules.deletionStatus),
        ne(moduleSkus.status, 'REMOVED'),
      ),
    );
}

/** Live clusters of a month carrying any of these modules (ADDED), with their ADDED modules and store counts. */
export async function clustersWithModules(db: Queryable, monthId: string, names: readonly string[]) {
  const hits = await db
    .selectDistinct({ pk: clusters.id })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .where(and(eq(clusters.monthId, monthId), inArray(clusterModules.moduleName, [...names]), eq(clusterModules.status, 'ADDED'), isNull(clusters.deletionStatus)));
  const pks = hits.map((h) => h.pk);
  if (pks.length === 0) return [];
  const [rows, mods, doors] = await Promise.all([
    db.select().from(clusters).where(inArray(clusters.id, pks)).orderBy(asc(clusters.clusterLabel)),
    db
      .select({ pk: clusterModules.clusterPk, moduleName: clusterModules.moduleName })
      .from(clusterModules)
      .where(and(inArray(clusterModules.clusterPk, pks), eq(clusterModules.status, 'ADDED'))),
    db
      .select({ pk: clusterStores.clusterPk, n: sql<number>`count(*)::int` })
      .from(clusterStores)
      .where(inArray(clusterStores.clusterPk, pks))
      .groupBy(clusterStores.clusterPk),
  ]);
  const modsOf = new Map<number, string[]>();
  for (const m of mods) modsOf.set(m.pk, [...(modsOf.get(m.pk) ?? []), m.moduleName]);
  const doorsOf = new Map(doors.map((d) => [d.pk, Number(d.n)]));
  return rows.map((r) => ({ row: r, modules: (modsOf.get(r.id) ?? []).sort(), doors: doorsOf.get(r.id) ?? 0 }));
}

/** ADDED modules of clusters (by cluster id) in another month: the refresh baseline. */
export async function clusterModulesIn(db: Queryable, monthId: string, clusterIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (clusterIds.length === 0) return out;
  const rows = await db
    .select({ clusterId: clusters.clusterId, moduleName: clusterModules.moduleName })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .where(and(eq(clusters.monthId, monthId), inArray(clusters.clusterId, [...clusterIds]), eq(clusterModules.status, 'ADDED'), isNull(clusters.deletionStatus)));
  for (const r of rows) out.set(r.clusterId, [...(out.get(r.clusterId) ?? []), r.moduleName]);
  return out;
}

/** Modules of a month in which the SKU is published (SUBMITTED, not removed). */
export async function publishedModulesOf(db: Queryable, monthId: string, sku: { model: string; color: string; size: string; materialCode: string; skuCode: string }) {
  return db
    .select({
      moduleName: modules.moduleName,
      moduleLabel: modules.moduleLabel,
      monthId: modules.monthId,
      brandCode: modules.brandCode,
      moduleId: modules.id,
      mustHave: moduleSkus.mustHave,
      publicationDate: modules.publicationDate,
    })
    .from(moduleSkus)
    .innerJoin(modules, eq(modules.id, moduleSkus.moduleId))
    .innerJoin(skus, eq(skus.upc, moduleSkus.upc))
    .where(
      and(
        eq(modules.monthId, monthId),
        eq(modules.status, 'SUBMITTED'),
        isNull(modules.deletionStatus),
        ne(moduleSkus.status, 'REMOVED'),
        eq(skus.skuCode, sku.skuCode),
        eq(skus.materialCode, sku.materialCode),
        eq(skus.model, sku.model),
        eq(skus.color, sku.color),
        eq(skus.size, sku.size),
      ),
    )
    .orderBy(asc(modules.moduleName));
}

/** sku_month_stats.extra_sell_in of the SKU (by sku code and material) in a month; 0 when there is none. */
export async function extraSellInOf(db: Queryable, monthId: string, materialCode: string, skuCode: string): Promise<number> {
  const [row] = await db
    .select({ extra: skuMonthStats.extraSellIn })
    .from(skuMonthStats)
    .innerJoin(skus, eq(skus.upc, skuMonthStats.upc))
    .where(and(eq(skuMonthStats.monthId, monthId), eq(skus.skuCode, skuCode), eq(skus.materialCode, materialCode)));
  return row?.extra ?? 0;
}

/** Live modules of a family in a month (import by macro family). */
export async function familyModules(db: Queryable, f: { macroFamily: string; monthId: string; brand?: string | undefined; collection?: string | undefined }) {
  return db
    .select()
    .from(modules)
    .where(
      and(
        eq(modules.macroFamily, f.macroFamily),
        eq(modules.monthId, f.monthId),
        f.brand ? eq(modules.brandCode, f.brand) : undefined,
        f.collection ? eq(modules.collection, f.collection) : undefined,
        isNull(modules.deletionStatus),
      ),
    )
    .orderBy(asc(modules.moduleName))
    .limit(200);
}
