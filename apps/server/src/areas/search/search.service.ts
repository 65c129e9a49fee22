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
import type { ServiceContext } from '../../plugins/context.js';
import { JsonText, arrayText } from '../../lib/json-text.js';
import { queryRows } from '../../db/client.js';
import type { Kept, KeptAnswers } from '../../lib/kept-answers.js';
import type { Scope } from '../../lib/kept-answers.repository.js';
import { tooManyResults } from '../../lib/errors.js';
import { byCodePoint, byText } from '../../lib/text-order.js';
import * as repo from './search.repository.js';
import { grantedCodes, visibilityOf, type Visibility } from '../../lib/visibility.js';

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
// The list answers are written by the database, item by item (repo.moduleListJsonQuery, clusterListJsonQuery):
// Node sorts the items and joins their texts (docs/performance.md, section 1). A list's answer is kept while nothing it
// covers has changed (`KeptAnswers`, lib/kept-answers.ts): keyed by its route, SQL and parameters (the filters and the
// caller's visibility), checked against the version of the months and brands it can contain (`listScope`) and held no
// longer than its first live lock lives.

const chosen = (values: readonly string[] | null | undefined): string[] | null => (values && values.length ? [...new Set(values)].sort() : null);

/**
 * The months and brands a list can contain: those of its filters, the brands narrowed to the caller's (an item is of one
 * of them, `visibilityOf`). `anyBrand`: the list also reads items of other brands of its months (a module's stars
 * customers are those of the clusters holding it, whatever their brand).
 */
export function listScope(filters: SearchFilters, visibility: Visibility, anyBrand = false): Scope {
  const months = chosen(filters.monthId);
  if (anyBrand) return { months, brands: null };
  const brands = chosen(filters.brand);
  if (visibility.all) return { months, brands };
  return { months, brands: brands ? brands.filter((b) => visibility.brands.includes(b)) : [...visibility.brands] };
}

/** The answer of `route` for `query`, which reads within `scope`, from `answers` or written by `write` from the query's rows. */
async function listAnswer<Row extends { lockLeft: number | null }, T>(
  ctx: ServiceContext,
  answers: KeptAnswers,
  route: string,
  scope: Scope,
  query: SQL,
  write: (rows: Row[]) => string,
): Promise<JsonText<T>> {
  const compiled = repo.compiledQuery(query);
  const key = `${route}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.params)}`;
  const bytes = await answers.answer(key, scope, async (): Promise<Kept> => {
    const rows = await queryRows<Row>(ctx.db, query);
    let lockLeft = Infinity;
    for (const row of rows) if (row.lockLeft !== null) lockLeft = Math.min(lockLeft, Number(row.lockLeft));
    return { bytes: Buffer.from(write(rows), 'utf8'), validForMs: lockLeft * 1000 };
  });
  return new JsonText<T>(bytes);
}

/** The modules of the search as the database wrote them, at most MAX_SEARCH_RESULTS (413 past it), sorted. */
function moduleItemsAnswer<T>(ctx: ServiceContext, answers: KeptAnswers, route: string, filters: SearchFilters, write: (rows: repo.ModuleListJson[]) => string) {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const visibility = visibilityOf(ctx.user.grants);
  const where = repo.moduleWhere(filters, visibility, undefined, repo.LIST_ZONES);
  const scope = listScope(filters, visibility, !!filters.starsCustomer?.length);
  return listAnswer<repo.ModuleListJson, T>(ctx, answers, route, scope, repo.moduleListJsonQuery(where, ctx.config.LOCK_TTL_MINUTES, max + 1), (rows) => {
    if (rows.length > max) throw tooManyResults();
    return write(sortModules(rows));
  });
}

type ModuleSortKeys = Pick<repo.ModuleListJson, 'macroFamily' | 'specialKind' | 'moduleLabel' | 'moduleName' | 'monthId'>;

const familyRank = (kind: string | null) => (kind === 'BEST_SELLER' ? 0 : kind === 'NEWNESS' ? 1 : 2);

/**
 * Special families first, then families, labels and names (case-insensitive, then code point: the same
 * on every database): `compareFamilies`, then the labels and names, with each row's keys worked out once.
 */
function sortModules<Row extends ModuleSortKeys>(rows: Row[]): Row[] {
  const keyed = rows.map((row) => ({ row, rank: familyRank(row.specialKind), label: row.moduleLabel.toLowerCase(), name: row.moduleName.toLowerCase() }));
  keyed.sort(
    (a, b) =>
      a.rank - b.rank ||
      byCodePoint(a.row.macroFamily, b.row.macroFamily) ||
      byCodePoint(a.label, b.label) ||
      byCodePoint(a.row.moduleLabel, b.row.moduleLabel) ||
      byCodePoint(a.name, b.name) ||
      byCodePoint(a.row.moduleName, b.row.moduleName) ||
      compareMonthIds(a.row.monthId, b.row.monthId),
  );
  return keyed.map((k) => k.row);
}

/** POST /api/module/filtered */
export function searchModules(ctx: ServiceContext, answers: KeptAnswers, filters: SearchFilters): Promise<JsonText<ModuleListItem[]>> {
  return moduleItemsAnswer(ctx, answers, 'module/filtered', filters, (rows) => arrayText(rows.map((r) => r.json)));
}

/** POST /api/module/macroFamily: the same modules, grouped by family (special families first). */
export function searchMacroFamilies(ctx: ServiceContext, answers: KeptAnswers, filters: SearchFilters): Promise<JsonText<MacroFamilyGroup[]>> {
  return moduleItemsAnswer(ctx, answers, 'module/macroFamily', filters, (rows) => {
    const groups = new Map<string, { macroFamily: string; specialKind: string | null; items: string[] }>();
    for (const row of rows) {
      let group = groups.get(row.macroFamily);
      if (!group) groups.set(row.macroFamily, (group = { macroFamily: row.macroFamily, specialKind: row.specialKind, items: [] }));
      group.items.push(row.json);
    }
    return arrayText(
      [...groups.values()]
        .sort(compareFamilies)
        .map((g) => `{"macroFamily":${JSON.stringify(g.macroFamily)},"specialKind":${JSON.stringify(g.specialKind)},"moduleList":${arrayText(g.items)}}`),
    );
  });
}

/** POST /api/cluster/filtered: by label, id and month. */
export function searchClusters(ctx: ServiceContext, answers: KeptAnswers, filters: SearchFilters): Promise<JsonText<ClusterListItem[]>> {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const visibility = visibilityOf(ctx.user.grants);
  const query = repo.clusterListJsonQuery(repo.clusterWhere(filters, visibility), ctx.config.LOCK_TTL_MINUTES, max + 1);
  return listAnswer<repo.ClusterListJson, ClusterListItem[]>(ctx, answers, 'cluster/filtered', listScope(filters, visibility), query, (rows) => {
    if (rows.length > max) throw tooManyResults();
    // byText on label, id and month, with the lower-case texts worked out once per row.
    const keyed = rows.map((row) => ({ row, label: row.clusterLabel.toLowerCase(), id: row.clusterId.toLowerCase() }));
    keyed.sort(
      (a, b) =>
        byCodePoint(a.label, b.label) ||
        byCodePoint(a.row.clusterLabel, b.row.clusterLabel) ||
        byCodePoint(a.id, b.id) ||
        byCodePoint(a.row.clusterId, b.row.clusterId) ||
        compareMonthIds(a.row.monthId, b.row.monthId),
    );
    return arrayText(keyed.map((k) => k.row.json));
  });
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
  const brands = visibility.all ? undefined : visibility.brands;
  // Every filter's values in one statement (until 2026-11-27 one each, at once, each on a connection of its own).
  const found = await repo.optionValuesByKey(
    ctx.db,
    new Map(
      wanted.map((key) => [
        key,
        kind === 'module'
          ? repo.moduleOptionQuery(key, repo.moduleWhere(filters, visibility, key), brands)
          : repo.clusterOptionQuery(key, repo.clusterWhere(filters, visibility, key), brands),
      ]),
    ),
  );
  const values = new Map([...found].map(([key, list]) => [key, [...new Set(list)]]));
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
