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
import { JsonText, arrayBytes, concatBytes, pushArray } from '../../lib/json-text.js';
import { queryRows } from '../../db/client.js';
import type { Kept, KeptAnswers, Refresh } from '../../lib/kept-answers.js';
import type { Scope } from '../../lib/kept-answers.repository.js';
import { tooManyResults } from '../../lib/errors.js';
import { byCodePoint } from '../../lib/text-order.js';
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
  return sortClusters(rows);
}

// ───────────────────────────── lists ─────────────────────────────
// The list answers are written by the database, item by item (repo.moduleListJsonQuery, clusterListJsonQuery):
// Node sorts the items and joins their texts (docs/performance.md, section 1). A list's answer is kept while nothing it
// covers has changed (`KeptAnswers`, lib/kept-answers.ts): keyed by its route, SQL and parameters (the filters and the
// caller's visibility), checked against the version of the months and brands it can contain (`listScope`) and held no
// longer than its first live lock lives. When only some of its items changed since, it is refreshed: those items are
// read again (the list's SQL narrowed to their ids) and merged into the kept ones, in the list's order.

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

/** What every list row has: its item's row id, its JSON and its lock's seconds left. */
interface ListRow {
  id: number;
  json: string;
  lockLeft: number | null;
}

/** A list row as kept: with the performance.now() at which its lock stops being live with time alone (Infinity: none). */
type HeldRow<Row extends ListRow> = Row & { lapses: number };

/** How a list is read and written (`listAnswer`). */
interface ListWay<Row extends ListRow> {
  kind: repo.ItemKind;
  /** The list's SQL, or, given ids, the SQL of those of its items. */
  query: (ids?: readonly number[]) => SQL;
  /** Does the list read items of the other kind (a module list by stars customers reads clusters)? */
  readsOtherKind: boolean;
  /** The rows in the list's order (a new array). */
  sort: (rows: Row[]) => Row[];
  /** The answer's UTF-8 bytes from the sorted rows (413 past MAX_SEARCH_RESULTS). */
  write: (rows: Row[]) => Buffer;
}

/** The rows of the list: read whole, or the kept ones with the changed items read again. */
async function listRows<Row extends ListRow>(ctx: ServiceContext, way: ListWay<Row>, refresh: Refresh | undefined): Promise<HeldRow<Row>[]> {
  const now = performance.now();
  const held = (rows: Row[]) => rows.map((r) => Object.assign(r, { lapses: r.lockLeft === null ? Infinity : now + Number(r.lockLeft) * 1000 }));
  const kept = refresh?.state as HeldRow<Row>[] | undefined;
  if (!refresh || !kept || (way.readsOtherKind && refresh.changed.some((c) => c.type !== way.kind))) {
    return held(way.sort(await queryRows<Row>(ctx.db, way.query())));
  }
  // The items that changed, and those whose lock lapsed with time alone since they were read.
  const ids = new Set(refresh.changed.filter((c) => c.type === way.kind).map((c) => c.id));
  for (const row of kept) if (row.lapses <= now) ids.add(row.id);
  if (ids.size === 0) return kept;
  const fresh = held(await queryRows<Row>(ctx.db, way.query([...ids])));
  return way.sort([...kept.filter((row) => !ids.has(row.id)), ...fresh]) as HeldRow<Row>[];
}

/** The answer of `route`, which reads within `scope`, from `answers`: kept, refreshed, or read whole and written by `way`. */
async function listAnswer<Row extends ListRow, T>(ctx: ServiceContext, answers: KeptAnswers, route: string, scope: Scope, way: ListWay<Row>): Promise<JsonText<T>> {
  const compiled = repo.compiledQuery(way.query());
  const key = `${route}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.params)}`;
  const bytes = await answers.answer(key, scope, async (refresh): Promise<Kept> => {
    const rows = await listRows(ctx, way, refresh);
    const bytes = way.write(rows);
    let lapses = Infinity;
    for (const row of rows) lapses = Math.min(lapses, row.lapses);
    // The items kept for a refresh: their JSON and about 200 bytes of keys each.
    return { bytes, validForMs: lapses - performance.now(), items: { state: rows, bytes: bytes.length + rows.length * 200 } };
  });
  return new JsonText<T>(bytes);
}

/** The modules of the search as the database wrote them, at most MAX_SEARCH_RESULTS (413 past it), sorted. */
function moduleItemsAnswer<T>(ctx: ServiceContext, answers: KeptAnswers, route: string, filters: SearchFilters, write: (rows: repo.ModuleListJson[]) => Buffer) {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const visibility = visibilityOf(ctx.user.grants);
  const where = repo.moduleWhere(filters, visibility, undefined, repo.LIST_ZONES);
  const readsOtherKind = !!filters.starsCustomer?.length;
  return listAnswer<repo.ModuleListJson, T>(ctx, answers, route, listScope(filters, visibility, readsOtherKind), {
    kind: 'module',
    query: (ids) => repo.moduleListJsonQuery(ids ? repo.whereRowIds('m', where, ids) : where, ctx.config.LOCK_TTL_MINUTES, ids ? ids.length : max + 1),
    readsOtherKind,
    sort: sortModules,
    write: (rows) => {
      if (rows.length > max) throw tooManyResults();
      return write(rows);
    },
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

/** Clusters by label, id and month (case-insensitive, then code point), each row's lower-case texts worked out once. */
function sortClusters<Row extends Pick<repo.ClusterListJson, 'clusterLabel' | 'clusterId' | 'monthId'>>(rows: Row[]): Row[] {
  const keyed = rows.map((row) => ({ row, label: row.clusterLabel.toLowerCase(), id: row.clusterId.toLowerCase() }));
  keyed.sort(
    (a, b) =>
      byCodePoint(a.label, b.label) ||
      byCodePoint(a.row.clusterLabel, b.row.clusterLabel) ||
      byCodePoint(a.id, b.id) ||
      byCodePoint(a.row.clusterId, b.row.clusterId) ||
      compareMonthIds(a.row.monthId, b.row.monthId),
  );
  return keyed.map((k) => k.row);
}

/** POST /api/module/filtered */
export function searchModules(ctx: ServiceContext, answers: KeptAnswers, filters: SearchFilters): Promise<JsonText<ModuleListItem[]>> {
  return moduleItemsAnswer(ctx, answers, 'module/filtered', filters, (rows) => arrayBytes(rows.map((r) => r.json)));
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
    const pieces: string[] = ['['];
    for (const g of [...groups.values()].sort(compareFamilies)) {
      if (pieces.length > 1) pieces.push(',');
      pieces.push(`{"macroFamily":${JSON.stringify(g.macroFamily)},"specialKind":${JSON.stringify(g.specialKind)},"moduleList":`);
      pushArray(pieces, g.items);
      pieces.push('}');
    }
    pieces.push(']');
    return concatBytes(pieces);
  });
}

/** POST /api/cluster/filtered: by label, id and month. */
export function searchClusters(ctx: ServiceContext, answers: KeptAnswers, filters: SearchFilters): Promise<JsonText<ClusterListItem[]>> {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  const visibility = visibilityOf(ctx.user.grants);
  const where = repo.clusterWhere(filters, visibility);
  return listAnswer<repo.ClusterListJson, ClusterListItem[]>(ctx, answers, 'cluster/filtered', listScope(filters, visibility), {
    kind: 'cluster',
    query: (ids) => repo.clusterListJsonQuery(ids ? repo.whereRowIds('c', where, ids) : where, ctx.config.LOCK_TTL_MINUTES, ids ? ids.length : max + 1),
    readsOtherKind: false,
    sort: sortClusters,
    write: (rows) => {
      if (rows.length > max) throw tooManyResults();
      return arrayBytes(rows.map((r) => r.json));
    },
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
