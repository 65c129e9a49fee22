/**
 * The home search (part 1 §2 "Home", §7; part 2 §7; contract §2): filter options that narrow as the
 * selection grows, counts, module and cluster lists, and modules grouped by macro family. Only live
 * items the caller may view are ever listed; a search past MAX_SEARCH_RESULTS answers 413.
 */
import type { SQL } from 'drizzle-orm';
import { compareMonthIds } from '@bo/shared/months';
import {
  CLUSTER_OPTION_KEYS,
  compareFamilies,
  MODULE_OPTION_KEYS,
  type ClusterListItem,
  type FilterKey,
  type FilterOption,
  type FilterOptions,
  type MacroFamilyGroup,
  type ModuleListItem,
  type SearchFilters,
} from '@bo/shared/search';
import type { ServiceContext } from '../../lib/context.js';
import { tooManyResults } from '../../lib/errors.js';
import * as repo from './search.repository.js';
import { grantedCodes, visibilityOf } from './visibility.js';

export const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Case-insensitive, then code-point order: the same on every database whatever its collation. */
export const byText = (a: string, b: string) => byCodePoint(a.toLowerCase(), b.toLowerCase()) || byCodePoint(a, b);

/** The modules of a list WHERE, at most MAX_SEARCH_RESULTS (413 with `tooMany` past it), unsorted. */
export async function moduleListRows(ctx: ServiceContext, where: SQL, tooMany?: string): Promise<repo.ModuleListRow[]> {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const rows = await repo.moduleList(ctx.db, where, ctx.config.LOCK_TTL_MINUTES, max + 1);
  if (rows.length > max) throw tooManyResults(tooMany);
  return rows;
}

/** The clusters of a list WHERE, at most MAX_SEARCH_RESULTS (413 with `tooMany` past it), by label, id and month. */
export async function clusterListRows(ctx: ServiceContext, where: SQL, tooMany?: string): Promise<repo.ClusterListRow[]> {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const rows = await repo.clusterList(ctx.db, where, ctx.config.LOCK_TTL_MINUTES, max + 1);
  if (rows.length > max) throw tooManyResults(tooMany);
  return rows.sort((a, b) => byText(a.clusterLabel, b.clusterLabel) || byText(a.clusterId, b.clusterId) || compareMonthIds(a.monthId, b.monthId));
}

// ───────────────────────────── lists ─────────────────────────────

function toModuleItem(r: repo.ModuleListRow): ModuleListItem {
  return {
    moduleName: r.moduleName,
    moduleLabel: r.moduleLabel,
    moduleDescription: r.moduleDescription,
    monthId: r.monthId,
    macroFamily: r.macroFamily,
    brand: r.brand,
    collection: r.collection,
    planningChannel: r.planningChannel,
    starZones: r.starZones ? r.starZones.split(',') : [],
    status: r.status as ModuleListItem['status'],
    newModule: r.newModule,
    locked: r.userLock !== null,
    userLock: r.userLock,
    legoMonth: r.legoMonth,
    inOpenMonth: r.inOpenMonth,
    releaseClosed: r.releaseClosed,
    door: r.door,
    length: r.length,
    elLength: r.elLength,
    initialSize: r.initialSize,
    rpasErrors: r.rpasErrors,
    publicationDate: r.publicationDate,
    updatedBy: r.updatedBy,
    updatedAt: r.updatedAt,
  };
}

/** Special families first, then families, labels and names (case-insensitive, then code point: the same on every database). */
function sortModules(rows: repo.ModuleListRow[]): repo.ModuleListRow[] {
  const keyed = rows.map((row) => ({ row, label: row.moduleLabel.toLowerCase(), name: row.moduleName.toLowerCase() }));
  keyed.sort(
    (a, b) =>
      compareFamilies(a.row, b.row) ||
      byCodePoint(a.label, b.label) ||
      byCodePoint(a.row.moduleLabel, b.row.moduleLabel) ||
      byCodePoint(a.name, b.name) ||
      byCodePoint(a.row.moduleName, b.row.moduleName) ||
      compareMonthIds(a.row.monthId, b.row.monthId),
  );
  return keyed.map((k) => k.row);
}

async function searchModuleRows(ctx: ServiceContext, filters: SearchFilters) {
  const where = repo.moduleWhere(filters, visibilityOf(ctx.user.grants), undefined, repo.LIST_ZONES);
  return sortModules(await moduleListRows(ctx, where));
}

/** POST /api/module/filtered */
export async function searchModules(ctx: ServiceContext, filters: SearchFilters): Promise<ModuleListItem[]> {
  return (await searchModuleRows(ctx, filters)).map(toModuleItem);
}

/** POST /api/module/macroFamily: the same modules, grouped by family (special families first). */
export async function searchMacroFamilies(ctx: ServiceContext, filters: SearchFilters): Promise<MacroFamilyGroup[]> {
  const groups = new Map<string, MacroFamilyGroup>();
  for (const row of await searchModuleRows(ctx, filters)) {
    let group = groups.get(row.macroFamily);
    if (!group) groups.set(row.macroFamily, (group = { macroFamily: row.macroFamily, specialKind: row.specialKind, moduleList: [] }));
    group.moduleList.push(toModuleItem(row));
  }
  return [...groups.values()].sort(compareFamilies);
}

/** POST /api/cluster/filtered */
export async function searchClusters(ctx: ServiceContext, filters: SearchFilters): Promise<ClusterListItem[]> {
  const rows = await clusterListRows(ctx, repo.clusterWhere(filters, visibilityOf(ctx.user.grants)));
  return rows.map((r) => ({
    clusterId: r.clusterId,
    clusterLabel: r.clusterLabel,
    clusterDescription: r.clusterDescription,
    monthId: r.monthId,
    brandCode: r.brandCode,
    collection: r.collection,
    planningChannel: r.planningChannel,
    country: r.country ?? [],
    starZones: r.starZones ?? [],
    status: r.status as ClusterListItem['status'],
    locked: r.userLock !== null,
    userLock: r.userLock,
    legoMonth: r.legoMonth,
    inOpenMonth: r.inOpenMonth,
    releaseClosed: r.releaseClosed,
    rangeFacing: r.rangeFacing,
    door: r.door,
    rpasErrors: r.rpasErrors,
    publicationDate: r.publicationDate,
    updatedBy: r.updatedBy,
    updatedAt: r.updatedAt,
  }));
}

/** POST /api/module/filteredDry, /api/cluster/filteredDry: how many items the search would list (never 413). */
export async function countItems(ctx: ServiceContext, kind: repo.ItemKind, filters: SearchFilters): Promise<{ count: number }> {
  const visibility = visibilityOf(ctx.user.grants);
  const where = kind === 'module' ? repo.moduleWhere(filters, visibility) : repo.clusterWhere(filters, visibility);
  return { count: await repo.countRows(ctx.db, kind, where) };
}

// ───────────────────────────── filter options ─────────────────────────────

const NEW_MODULE_LABELS: Record<string, string> = { true: 'Newness', false: 'Carry Over' };

function sortOptions(key: FilterKey, options: FilterOption[]): FilterOption[] {
  if (key === 'monthId') return options.sort((a, b) => compareMonthIds(a.value, b.value));
  return options.sort((a, b) => byCodePoint(a.value, b.value));
}

/**
 * POST /api/module/filters, /api/cluster/filters: per filter, the values found among the items that
 * match every *other* filter of the body (so a filter keeps offering its alternatives while the other
 * filters narrow it), among live items the caller may view.
 */
export async function filterOptions(ctx: ServiceContext, kind: repo.ItemKind, filters: SearchFilters, keys?: readonly FilterKey[]): Promise<FilterOptions> {
  const visibility = visibilityOf(ctx.user.grants);
  const offered: readonly FilterKey[] = kind === 'module' ? MODULE_OPTION_KEYS : CLUSTER_OPTION_KEYS;
  const wanted = (keys ?? offered).filter((k) => offered.includes(k));
  const values = new Map<FilterKey, string[]>();
  await Promise.all(
    wanted.map(async (key) => {
      const brands = visibility.all ? undefined : visibility.brands;
      const list =
        kind === 'module'
          ? await repo.moduleOptionValues(ctx.db, key, repo.moduleWhere(filters, visibility, key), brands)
          : await repo.clusterOptionValues(ctx.db, key, repo.clusterWhere(filters, visibility, key), brands);
      values.set(key, [...new Set(list)]);
    }),
  );
  const labels = await repo.optionLabels(ctx.db, wanted, values);
  const out: FilterOptions = {};
  for (const key of wanted) {
    const options = (values.get(key) ?? []).map((value) => ({
      value,
      label: key === 'newModule' ? (NEW_MODULE_LABELS[value] ?? value) : (labels.get(`${key}|${value}`) ?? value),
    }));
    out[key] = sortOptions(key, options);
  }
  return out;
}

/**
 * GET /api/cluster/initialFilters: the home's options before anything is chosen: every month, the
 * channels and collections, and the brands, stars zones and countries the caller holds grants for.
 */
export async function initialFilters(ctx: ServiceContext): Promise<FilterOptions> {
  const granted = grantedCodes(ctx.user.grants);
  const { monthRows, channelRows, brandRows, collectionRows, zoneRows, countryRows } = await repo.referenceOptions(ctx.db);
  const brandOk = (b: string) => granted === 'all' || granted.brands.has(b);
  const zoneOk = (z: string) => granted === 'all' || granted.zones.has(z);
  return {
    monthId: monthRows.map((m) => m.monthId).sort(compareMonthIds).map((m) => ({ value: m, label: m })),
    planningChannel: channelRows.map((c) => ({ value: c.planningChannelId, label: c.label })),
    brand: brandRows.filter((b) => brandOk(b.brandCode)).map((b) => ({ value: b.brandCode, label: b.description })),
    collection: collectionRows.map((c) => ({ value: c.collectionCode, label: c.description })),
    starsZone: zoneRows.filter((z) => zoneOk(z.zoneCode)).map((z) => ({ value: z.zoneCode, label: z.description })),
    country: countryRows.filter((c) => zoneOk(c.starsZone)).map((c) => ({ value: c.countryCode, label: c.name })),
  };
}
