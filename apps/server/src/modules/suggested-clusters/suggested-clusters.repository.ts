import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { clusters, countries, modules, months, stores, suggestedClusterModules, suggestedClusters, suggestedClusterStores } from '../../db/schema.js';

export type SuggestionRow = typeof suggestedClusters.$inferSelect;

export async function listSuggestions(db: Queryable, countryCodes: readonly string[]): Promise<SuggestionRow[]> {
  const q = db.select().from(suggestedClusters);
  const filtered = countryCodes.length ? q.where(inArray(suggestedClusters.country, [...countryCodes])) : q;
  return filtered.orderBy(desc(suggestedClusters.dateSuggest), asc(suggestedClusters.assortmentId));
}

export async function findSuggestion(db: Queryable, assortmentId: string, forUpdate = false): Promise<SuggestionRow | undefined> {
  const q = db.select().from(suggestedClusters).where(eq(suggestedClusters.assortmentId, assortmentId));
  const rows = forUpdate ? await q.for('update') : await q;
  return rows[0];
}

export async function suggestionStores(db: Queryable, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      assortmentId: suggestedClusterStores.assortmentId,
      storeJda: suggestedClusterStores.storeJda,
      starsCustomer: suggestedClusterStores.starsCustomer,
      customerSegmentation: suggestedClusterStores.customerSegmentation,
      countryCode: stores.countryCode,
      planningChannelId: stores.planningChannelId,
      starsZone: countries.starsZone,
    })
    .from(suggestedClusterStores)
    .innerJoin(stores, eq(stores.storeJda, suggestedClusterStores.storeJda))
    .innerJoin(countries, eq(countries.countryCode, stores.countryCode))
    .where(inArray(suggestedClusterStores.assortmentId, [...ids]))
    .orderBy(asc(suggestedClusterStores.storeJda));
}

export async function suggestionModules(db: Queryable, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(suggestedClusterModules)
    .where(inArray(suggestedClusterModules.assortmentId, [...ids]))
    .orderBy(asc(suggestedClusterModules.moduleName));
}

/** Label, family and brand of live modules, per (month, name). */
export async function moduleInfo(db: Queryable, monthIds: readonly string[], names: readonly string[]) {
  const out = new Map<string, { moduleLabel: string; macroFamily: string; brandCode: string; collection: string }>();
  if (monthIds.length === 0 || names.length === 0) return out;
  const rows = await db
    .select({
      monthId: modules.monthId,
      moduleName: modules.moduleName,
      moduleLabel: modules.moduleLabel,
      macroFamily: modules.macroFamily,
      brandCode: modules.brandCode,
      collection: modules.collection,
    })
    .from(modules)
    .where(and(inArray(modules.monthId, [...new Set(monthIds)]), inArray(modules.moduleName, [...new Set(names)]), isNull(modules.deletionStatus)));
  for (const r of rows) out.set(`${r.monthId}|${r.moduleName}`, r);
  return out;
}

export async function zoneOfCountries(db: Queryable, codes: readonly string[]) {
  if (codes.length === 0) return new Map<string, string>();
  const rows = await db.select().from(countries).where(inArray(countries.countryCode, [...new Set(codes)]));
  return new Map(rows.map((r) => [r.countryCode, r.starsZone]));
}

/** Open months of a release, in month order. */
export async function openMonthsOfRelease(db: Queryable, releaseId: string) {
  return db
    .select({ monthId: months.monthId, open: months.open })
    .from(months)
    .where(and(eq(months.releaseId, releaseId), eq(months.open, true)))
    .orderBy(asc(months.year), asc(months.month));
}

/** Any row of the cluster id (label and planning channel of an existing cluster are reused). */
export async function anyClusterWithId(db: Queryable, clusterId: string) {
  const [row] = await db.select().from(clusters).where(eq(clusters.clusterId, clusterId)).orderBy(desc(clusters.id)).limit(1);
  return row;
}
