import { and, asc, desc, eq, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { activeSkuCounts } from '../module/modules.repository.js';
import {
  clientClassifications,
  clusterModules,
  clusters,
  countries,
  modules,
  moduleSkus,
  moduleStarsZones,
  months,
  skus,
} from '../../db/schema.js';

/** Escapes LIKE wildcards so that the text is searched literally. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ModuleSearchFilters {
  monthId: string;
  brand: readonly string[];
  collection: readonly string[];
  macroFamily: readonly string[];
  /** Stars zones of the chosen countries (a module matches when it carries one of them). */
  zones: readonly string[] | null;
  text: string | null;
}

/** Live modules of a month matching the filters, with their zones and active SKU count. */
export async function searchModules(db: Queryable, f: ModuleSearchFilters, limit: number) {
  const conds: SQL[] = [eq(modules.monthId, f.monthId), isNull(modules.deletionStatus)];
  if (f.brand.length) conds.push(inArray(modules.brandCode, [...f.brand]));
  if (f.collection.length) conds.push(inArray(modules.collection, [...f.collection]));
  if (f.macroFamily.length) conds.push(inArray(modules.macroFamily, [...f.macroFamily]));
  if (f.text) conds.push(or(ilike(modules.moduleLabel, likeText(f.text)), ilike(modules.moduleName, likeText(f.text)))!);
  if (f.zones) {
    if (f.zones.length === 0) return [];
    conds.push(
      sql`EXISTS (SELECT 1 FROM ${moduleStarsZones} WHERE ${moduleStarsZones.moduleId} = ${modules.id} AND ${inArray(moduleStarsZones.starsZone, [...f.zones])})`,
    );
  }
  const rows = await db
    .select({
      id: modules.id,
      moduleName: modules.moduleName,
      moduleLabel: modules.moduleLabel,
      macroFamily: modules.macroFamily,
      brand: modules.brandCode,
      collection: modules.collection,
      monthId: modules.monthId,
      status: modules.status,
    })
    .from(modules)
    .where(and(...conds))
    .orderBy(asc(modules.macroFamily), asc(modules.moduleLabel), asc(modules.moduleName))
    .limit(limit);
  const ids = rows.map((r) => r.id);
  const zoneRows = ids.length
    ? await db.select().from(moduleStarsZones).where(inArray(moduleStarsZones.moduleId, ids)).orderBy(asc(moduleStarsZones.starsZone))
    : [];
  const counts = await activeSkuCounts(db, ids);
  const zonesBy = new Map<number, string[]>();
  for (const z of zoneRows) zonesBy.set(z.moduleId, [...(zonesBy.get(z.moduleId) ?? []), z.starsZone]);
  return rows.map((r) => {
    const c = counts.get(r.id) ?? { mh: 0, el: 0 };
    return { ...r, starZones: zonesBy.get(r.id) ?? [], totalSku: c.mh + c.el, length: c.mh, elLength: c.el };
  });
}

export async function zonesOfCountries(db: Queryable, codes: readonly string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const rows = await db
    .selectDistinct({ zone: countries.starsZone })
    .from(countries)
    .where(inArray(countries.countryCode, [...codes]));
  return rows.map((r) => r.zone);
}

export interface SkuLine {
  moduleName: string;
  upc: string;
  mustHave: boolean;
}

/** Active (not REMOVED) SKU lines of live modules of a month. */
export async function activeSkuLines(db: Queryable, monthId: string, moduleNames: readonly string[]): Promise<SkuLine[]> {
  if (moduleNames.length === 0) return [];
  return db
    .select({ moduleName: modules.moduleName, upc: moduleSkus.upc, mustHave: moduleSkus.mustHave })
    .from(moduleSkus)
    .innerJoin(modules, eq(modules.id, moduleSkus.moduleId))
    .where(
      and(eq(modules.monthId, monthId), inArray(modules.moduleName, [...new Set(moduleNames)]), isNull(modules.deletionStatus), ne(moduleSkus.status, 'REMOVED')),
    );
}

/** The latest live version of the cluster in a month before `monthId` (month order, not id order). */
export async function previousVersion(db: Queryable, clusterId: string, monthId: string) {
  const [current] = await db.select({ year: months.year, month: months.month }).from(months).where(eq(months.monthId, monthId));
  if (!current) return undefined;
  const [row] = await db
    .select({ id: clusters.id, monthId: clusters.monthId })
    .from(clusters)
    .innerJoin(months, eq(months.monthId, clusters.monthId))
    .where(
      and(
        eq(clusters.clusterId, clusterId),
        isNull(clusters.deletionStatus),
        or(lt(months.year, current.year), and(eq(months.year, current.year), lt(months.month, current.month))),
      ),
    )
    .orderBy(desc(months.year), desc(months.month))
    .limit(1);
  return row;
}

export async function addedModuleNames(db: Queryable, clusterPk: number): Promise<string[]> {
  const rows = await db
    .select({ moduleName: clusterModules.moduleName })
    .from(clusterModules)
    .where(and(eq(clusterModules.clusterPk, clusterPk), eq(clusterModules.status, 'ADDED')));
  return rows.map((r) => r.moduleName);
}

/** ADDED live modules of the clusters that hold active SKUs flagged discontinued. */
export async function discontinuedModules(db: Queryable, clusterPks: readonly number[]) {
  if (clusterPks.length === 0) return [];
  return db
    .select({
      clusterId: clusters.clusterId,
      moduleName: modules.moduleName,
      moduleLabel: modules.moduleLabel,
      monthId: modules.monthId,
      macroFamily: modules.macroFamily,
      discoSkuCount: sql<number>`count(DISTINCT ${moduleSkus.upc})::int`,
    })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .innerJoin(modules, and(eq(modules.moduleName, clusterModules.moduleName), eq(modules.monthId, clusters.monthId), isNull(modules.deletionStatus)))
    .innerJoin(moduleSkus, and(eq(moduleSkus.moduleId, modules.id), ne(moduleSkus.status, 'REMOVED')))
    .innerJoin(skus, and(eq(skus.upc, moduleSkus.upc), eq(skus.flagDisco, true)))
    .where(and(inArray(clusterModules.clusterPk, [...clusterPks]), eq(clusterModules.status, 'ADDED')))
    .groupBy(clusters.clusterId, modules.moduleName, modules.moduleLabel, modules.monthId, modules.macroFamily)
    .orderBy(asc(modules.macroFamily), asc(modules.moduleLabel));
}

export async function classificationOptions(db: Queryable) {
  return db
    .select({ classificationId: clientClassifications.classificationId, classificationLabel: clientClassifications.classificationLabel })
    .from(clientClassifications)
    .orderBy(asc(clientClassifications.classificationLabel));
}

/** A live module with its zones and its SKUs (all but REMOVED), MH first. */
export async function moduleWithSkus(db: Queryable, moduleName: string, monthId: string) {
  const [m] = await db
    .select()
    .from(modules)
    .where(and(eq(modules.moduleName, moduleName), eq(modules.monthId, monthId), isNull(modules.deletionStatus)));
  if (!m) return undefined;
  const [zones, lines] = [
    await db.select({ z: moduleStarsZones.starsZone }).from(moduleStarsZones).where(eq(moduleStarsZones.moduleId, m.id)),
    await db
      .select({ upc: skus.upc, model: skus.model, color: skus.color, size: skus.size, mustHave: moduleSkus.mustHave, flagDisco: skus.flagDisco })
      .from(moduleSkus)
      .innerJoin(skus, eq(skus.upc, moduleSkus.upc))
      .where(and(eq(moduleSkus.moduleId, m.id), ne(moduleSkus.status, 'REMOVED')))
      .orderBy(desc(moduleSkus.mustHave), asc(moduleSkus.position), asc(skus.upc)),
  ];
  return { module: m, zones: zones.map((z) => z.z), skus: lines };
}
