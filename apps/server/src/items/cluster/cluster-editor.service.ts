import {
  CLUSTER_EDITOR_TEXTS,
  moduleSearchAllowed,
  type ClusterPercentage,
  type ClusterPercentageRequest,
  type DiscontinuedModule,
  type ModuleComposition,
  type RangeFacing,
  type SearchedModule,
} from '@bo/shared/cluster-editor';
import type { ClusterKey } from '@bo/shared/clusters';
import { moduleKeyString } from '@bo/shared/item-keys';
import { refreshPercentage } from '@bo/shared/module-info';
import { canView } from '@bo/shared/permissions';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden, notFound, tooManyResults } from '../../lib/errors.js';
import { clusterRefKey, clusterScopes, findClusters, type ClusterRow } from './clusters.repository.js';
import * as repo from './cluster-editor.repository.js';

/** The asked clusters the caller may view, in request order (unknown, deleted and hidden ones are left out). */
async function viewableClusters(ctx: ServiceContext, keys: readonly ClusterKey[]): Promise<ClusterRow[]> {
  const rows = await findClusters(ctx.db, keys);
  const scopes = await clusterScopes(ctx.db, rows);
  const byKey = new Map(rows.filter((r) => canView(ctx.user.grants, scopes.get(r.id)!)).map((r) => [clusterRefKey(r), r]));
  const seen = new Set<string>();
  return keys.flatMap((k) => {
    const row = byKey.get(clusterRefKey(k));
    if (!row || seen.has(clusterRefKey(k))) return [];
    seen.add(clusterRefKey(k));
    return [row];
  });
}

/** POST /api/cluster/rangeFacingDto: the stored 'min-max' range facing of each cluster. */
export async function rangeFacing(ctx: ServiceContext, keys: readonly ClusterKey[]): Promise<RangeFacing[]> {
  return (await viewableClusters(ctx, keys)).map((r) => ({ clusterId: r.clusterId, monthId: r.monthId, rangeFacing: r.rangeFacing }));
}

interface Counts {
  all: Set<string>;
  mh: Set<string>;
}

function countLines(lines: readonly repo.SkuLine[], wanted?: ReadonlySet<string>): { total: Counts; byModule: Map<string, Counts> } {
  const total: Counts = { all: new Set(), mh: new Set() };
  const byModule = new Map<string, Counts>();
  for (const l of lines) {
    if (wanted && !wanted.has(l.moduleName)) continue;
    let m = byModule.get(l.moduleName);
    if (!m) byModule.set(l.moduleName, (m = { all: new Set(), mh: new Set() }));
    total.all.add(l.upc);
    m.all.add(l.upc);
    if (l.mustHave) {
      total.mh.add(l.upc);
      m.mh.add(l.upc);
    }
  }
  return { total, byModule };
}

/**
 * POST /api/cluster/clusterPercentage: for the composition in the body (unsaved edits count), the active
 * SKUs of the ADDED modules and the refresh: the share of them that the previous version of the cluster
 * (the latest earlier month holding it) did not carry. Modules are looked up in the cluster's month.
 */
export async function clusterPercentage(ctx: ServiceContext, list: ClusterPercentageRequest): Promise<{ clusterDtoList: ClusterPercentage[] }> {
  const rows = await viewableClusters(ctx, list);
  const byKey = new Map(rows.map((r) => [clusterRefKey(r), r]));
  const out: ClusterPercentage[] = [];
  for (const c of list) {
    const row = byKey.get(clusterRefKey(c));
    if (!row) continue;
    const added = [...new Set(c.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName))];
    const { total, byModule } = countLines(await repo.activeSkuLines(ctx.db, row.monthId, added));
    const previous = await repo.previousVersion(ctx.db, row.clusterId, row.monthId);
    let percentageRefresh: number | null = null;
    if (previous) {
      const before = countLines(await repo.activeSkuLines(ctx.db, previous.monthId, await repo.addedModuleNames(ctx.db, previous.id))).total.all;
      percentageRefresh = refreshPercentage(total.all, before);
    }
    out.push({
      clusterId: row.clusterId,
      monthId: row.monthId,
      percentageRefresh,
      previousMonthId: previous?.monthId ?? null,
      totalSku: total.all.size,
      totalMh: total.mh.size,
      modules: added.map((moduleName) => ({
        moduleName,
        totalSku: byModule.get(moduleName)?.all.size ?? 0,
        totalMh: byModule.get(moduleName)?.mh.size ?? 0,
      })),
    });
  }
  return { clusterDtoList: out };
}

/**
 * POST /api/cluster/moduleSearch: live modules of the month that the caller may view. Needs a country, a
 * family or more than 4 characters of label text (400 otherwise); past MAX_SEARCH_RESULTS answers 413.
 */
export async function searchModules(
  ctx: ServiceContext,
  req: { brand: string[]; collection: string[]; moduleLabel: string[]; monthId: string[]; country: string[]; macroFamily: string[] },
): Promise<SearchedModule[]> {
  if (!moduleSearchAllowed(req)) throw badRequest(CLUSTER_EDITOR_TEXTS.searchTooVague, [{ path: 'body', message: CLUSTER_EDITOR_TEXTS.searchTooVague }], 'searchTooVague');
  const text = req.moduleLabel[0]?.trim() || null;
  const zones = req.country.length ? await repo.zonesOfCountries(ctx.db, req.country) : null;
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const rows = await repo.searchModules(
    ctx.db,
    { monthId: req.monthId[0]!, brand: req.brand, collection: req.collection, macroFamily: req.macroFamily, zones, text },
    max * 4 + 1,
  );
  const visible = rows.filter((r) => canView(ctx.user.grants, { brand: r.brand, zones: r.starZones }));
  if (visible.length > max) throw tooManyResults();
  return visible.map((r) => ({
    moduleName: r.moduleName,
    moduleLabel: r.moduleLabel,
    macroFamily: r.macroFamily,
    brand: r.brand,
    collection: r.collection,
    monthId: r.monthId,
    status: r.status as SearchedModule['status'],
    starZones: r.starZones,
    totalSku: r.totalSku,
    length: r.length,
    elLength: r.elLength,
  }));
}

/** POST /api/cluster/discontinuedModules: ADDED modules of the open clusters that hold discontinued SKUs. */
export async function discontinuedModules(ctx: ServiceContext, keys: readonly ClusterKey[]): Promise<DiscontinuedModule[]> {
  const rows = await viewableClusters(ctx, keys);
  const found = await repo.discontinuedModules(
    ctx.db,
    rows.map((r) => r.id),
  );
  const byModule = new Map<string, DiscontinuedModule>();
  for (const f of found) {
    const key = moduleKeyString(f);
    const entry = byModule.get(key);
    if (entry) entry.clusterIds.push(f.clusterId);
    else
      byModule.set(key, {
        moduleName: f.moduleName,
        moduleLabel: f.moduleLabel,
        monthId: f.monthId,
        macroFamily: f.macroFamily,
        discoSkuCount: Number(f.discoSkuCount),
        clusterIds: [f.clusterId],
      });
  }
  return [...byModule.values()].map((m) => ({ ...m, clusterIds: [...new Set(m.clusterIds)].sort() }));
}

/** GET /api/cluster/classificationOptions: every client classification, for the editor's picker. */
export const classificationOptions = (ctx: ServiceContext) => repo.classificationOptions(ctx.db);

/** POST /api/cluster/moduleComposition: a module's active SKUs (the approve preview's composition pane). */
export async function moduleComposition(ctx: ServiceContext, key: { moduleName: string; monthId: string }): Promise<ModuleComposition> {
  const found = await repo.moduleWithSkus(ctx.db, key.moduleName, key.monthId);
  if (!found) throw notFound(`The module ${key.moduleName} does not exist in ${key.monthId}`);
  if (!canView(ctx.user.grants, { brand: found.module.brandCode, zones: found.zones })) throw forbidden(`You may not see the module ${key.moduleName}`);
  return {
    moduleName: found.module.moduleName,
    moduleLabel: found.module.moduleLabel,
    monthId: found.module.monthId,
    macroFamily: found.module.macroFamily,
    status: found.module.status as ModuleComposition['status'],
    skus: found.skus,
  };
}
