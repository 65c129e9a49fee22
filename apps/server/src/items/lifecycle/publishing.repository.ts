/**
 * SQL of publishing: the publication state of a module or cluster row, whichever kind the item is, and
 * what the checks before publishing read (publish-checks.ts).
 */
import { and, asc, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { clusterModules, clusters, clusterStores, moduleSkus, modules, skus } from '../../db/schema.js';
import type { ClusterPublishFacts, ModulePublishFacts } from './publish-checks.js';

/** A live module or cluster of a month (itemKey = moduleName or clusterId). */
export interface PublishedItemRef {
  itemType: 'module' | 'cluster';
  itemKey: string;
  monthId: string;
}

/** The publication fields of an item row; both tables name them alike. */
export type PublicationState = Partial<Pick<typeof modules.$inferInsert, 'status' | 'rpasErrors' | 'publicationDate' | 'updatedAt' | 'updatedBy'>>;

const tableOf = (t: PublishedItemRef['itemType']) => (t === 'module' ? modules : clusters);

function keyWhere(item: PublishedItemRef) {
  return item.itemType === 'module'
    ? and(eq(modules.moduleName, item.itemKey), eq(modules.monthId, item.monthId), isNull(modules.deletionStatus))
    : and(eq(clusters.clusterId, item.itemKey), eq(clusters.monthId, item.monthId), isNull(clusters.deletionStatus));
}

/** The status of the item's live row (undefined when there is none); `forUpdate` locks the row. */
export async function publishedItemStatus(db: Queryable, item: PublishedItemRef, forUpdate = false): Promise<string | undefined> {
  const table = tableOf(item.itemType);
  const q = db.select({ status: table.status }).from(table).where(keyWhere(item));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row?.status;
}

/** Writes publication fields on the item's live row. */
export async function setPublicationState(db: Queryable, item: PublishedItemRef, state: PublicationState): Promise<void> {
  await db.update(tableOf(item.itemType)).set(state).where(keyWhere(item));
}

/** The active (not REMOVED) SKUs of each module row with their SAP status, in composition order. */
export async function modulePublishFacts(db: Queryable, moduleIds: readonly number[]): Promise<Map<number, ModulePublishFacts>> {
  const out = new Map<number, { upc: string; sapStatus: string | null }[]>(moduleIds.map((id) => [id, []]));
  if (moduleIds.length === 0) return new Map();
  const rows = await db
    .select({ moduleId: moduleSkus.moduleId, upc: moduleSkus.upc, sapStatus: skus.sapStatus })
    .from(moduleSkus)
    .innerJoin(skus, eq(skus.upc, moduleSkus.upc))
    .where(and(inArray(moduleSkus.moduleId, [...moduleIds]), ne(moduleSkus.status, 'REMOVED')))
    .orderBy(asc(moduleSkus.moduleId), asc(moduleSkus.position));
  for (const r of rows) out.get(r.moduleId)?.push({ upc: r.upc, sapStatus: r.sapStatus });
  return new Map([...out].map(([id, list]) => [id, { skus: list }]));
}

/** The SAP status of SKUs by upc (unknown upcs are left out): for a composition not saved yet. */
export async function sapStatusesOf(db: Queryable, upcs: readonly string[]): Promise<Map<string, string | null>> {
  if (upcs.length === 0) return new Map();
  const rows = await db.select({ upc: skus.upc, sapStatus: skus.sapStatus }).from(skus).where(inArray(skus.upc, [...new Set(upcs)]));
  return new Map(rows.map((r) => [r.upc, r.sapStatus]));
}

/**
 * For each cluster row: its store count and its ADDED modules that are live in the cluster's month, with
 * their status. `clusters` gives each row's pk and month.
 */
export async function clusterPublishFacts(db: Queryable, rows: readonly { id: number; monthId: string }[]): Promise<Map<number, ClusterPublishFacts>> {
  if (rows.length === 0) return new Map();
  const pks = rows.map((r) => r.id);
  const storeCounts = await db
    .select({ clusterPk: clusterStores.clusterPk, n: count() })
    .from(clusterStores)
    .where(inArray(clusterStores.clusterPk, pks))
    .groupBy(clusterStores.clusterPk);
  const added = await db
    .select({ clusterPk: clusterModules.clusterPk, moduleName: clusterModules.moduleName, status: modules.status })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .innerJoin(modules, and(eq(modules.moduleName, clusterModules.moduleName), eq(modules.monthId, clusters.monthId), isNull(modules.deletionStatus)))
    .where(and(inArray(clusterModules.clusterPk, pks), eq(clusterModules.status, 'ADDED')))
    .orderBy(asc(clusterModules.clusterPk), asc(clusterModules.moduleName));
  const storesOf = new Map(storeCounts.map((s) => [s.clusterPk, Number(s.n)]));
  return new Map(
    rows.map((r) => [
      r.id,
      { storeCount: storesOf.get(r.id) ?? 0, modules: added.filter((m) => m.clusterPk === r.id).map((m) => ({ moduleName: m.moduleName, status: m.status })) },
    ]),
  );
}

/** The status of live modules of a month by name (for a cluster composition not saved yet). */
export async function liveModuleStatuses(db: Queryable, monthId: string, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .select({ moduleName: modules.moduleName, status: modules.status })
    .from(modules)
    .where(and(eq(modules.monthId, monthId), inArray(modules.moduleName, [...new Set(names)]), isNull(modules.deletionStatus)));
  return new Map(rows.map((r) => [r.moduleName, r.status]));
}

/** What a blocker shows of a SKU: model / colour / size, SAP status, GED expiry and the discontinued flag, by upc. */
export async function skuDetails(db: Queryable, upcs: readonly string[]) {
  if (upcs.length === 0) return new Map<string, SkuDetailRow>();
  const rows = await db
    .select({
      upc: skus.upc,
      model: skus.model,
      color: skus.color,
      colorDescription: skus.colorDescription,
      size: skus.size,
      sapStatus: skus.sapStatus,
      gedExpireDate: skus.gedExpireDate,
      flagDisco: skus.flagDisco,
    })
    .from(skus)
    .where(inArray(skus.upc, [...new Set(upcs)]));
  return new Map<string, SkuDetailRow>(rows.map((r) => [r.upc, r]));
}
export interface SkuDetailRow {
  upc: string;
  model: string;
  color: string;
  colorDescription: string;
  size: string;
  sapStatus: string | null;
  gedExpireDate: string | null;
  flagDisco: boolean;
}
