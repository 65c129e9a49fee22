import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { moduleKeyString } from '@bo/shared/item-keys';
import type { Queryable } from '../../db/client.js';
import { STORE_PLACE_COLUMNS } from './clusters.repository.js';
import { clusterModules, clusters, countries, modules, months, stores, suggestedClusterModules, suggestedClusters, suggestedClusterStores } from '../../db/schema.js';

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
      ...STORE_PLACE_COLUMNS,
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

/** Label, family and brand of live modules, by moduleKeyString. */
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
  for (const r of rows) out.set(moduleKeyString(r), r);
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

export async function clusterModuleRows(db: Queryable, clusterPk: number) {
  return db.select().from(clusterModules).where(eq(clusterModules.clusterPk, clusterPk));
}

/** An existing cluster takes the approved suggestion: a new version, SUBMITTED reopened as WIP by the caller's choice of status. */
export async function markClusterApproved(db: Queryable, pk: number, v: { status: string; approvedFrom: string; by: string; at: Date }): Promise<void> {
  await db
    .update(clusters)
    .set({ status: v.status, approvedFrom: v.approvedFrom, approvedBy: v.by, version: sql`${clusters.version} + 1`, updatedAt: v.at, updatedBy: v.by })
    .where(eq(clusters.id, pk));
}

/** A cluster created from an approved suggestion; answers its primary key. */
export async function insertApprovedCluster(db: Queryable, values: typeof clusters.$inferInsert): Promise<number> {
  const [row] = await db.insert(clusters).values(values).returning({ id: clusters.id });
  return row!.id;
}

/** Approving only takes a suggestion still PENDING; rejecting records the reason. */
export async function decideSuggestion(
  db: Queryable,
  assortmentId: string,
  d: { status: 'APPROVED' | 'REJECTED'; message: string | null; by: string; at: Date },
): Promise<void> {
  const set = d.status === 'APPROVED' ? { status: d.status, decidedBy: d.by, decidedAt: d.at } : { status: d.status, message: d.message, decidedBy: d.by, decidedAt: d.at };
  const where =
    d.status === 'APPROVED'
      ? and(eq(suggestedClusters.assortmentId, assortmentId), eq(suggestedClusters.status, 'PENDING'))
      : eq(suggestedClusters.assortmentId, assortmentId);
  await db.update(suggestedClusters).set(set).where(where);
}

