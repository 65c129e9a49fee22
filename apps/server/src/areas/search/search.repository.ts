/**
 * The SQL of the home search, for modules and clusters: one WHERE clause built from the filter body
 * (intersection of filters, union of the values of one filter), the caller's visibility, and live rows
 * only. Lists, counts and filter options all use it, so they always agree.
 *
 * Text filters use `strpos(lower(column), lower(text))`: the text is a plain parameter, never a
 * pattern, so `%`, `_` and `\` match themselves.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FilterKey, SearchFilters } from '@bo/shared/search';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLock, lockSecondsLeft } from '../../lib/locks.repository.js';
import { moduleZonesArray } from '../../items/module/modules.repository.js';
import { inLegoMonth } from '../../items/lifecycle/months.repository.js';
import type { Visibility } from '../../lib/visibility.js';

export type ItemKind = 'module' | 'cluster';

const has = (values: readonly unknown[] | null | undefined): values is readonly string[] => !!values && values.length > 0;
const inList = (column: SQL, values: readonly (string | boolean)[]) => sql`${column} IN ${[...new Set(values)]}`;
const TRUE = sql`TRUE`;
const FALSE = sql`FALSE`;
const and = (parts: readonly SQL[]) => (parts.length ? sql.join(parts.map((p) => sql`(${p})`), sql` AND `) : TRUE);
const or = (parts: readonly SQL[]) => (parts.length ? sql.join(parts.map((p) => sql`(${p})`), sql` OR `) : FALSE);

/** Any of the texts is contained (case-insensitively) in any of the columns. */
function containsAny(columns: readonly SQL[], texts: readonly string[]): SQL {
  return or(texts.flatMap((t) => columns.map((c) => sql`strpos(lower(${c}), lower(${t})) > 0`)));
}

/** The columns of the filters that modules and clusters both have as a column of their own. */
interface ItemColumns {
  month: SQL;
  channel: SQL;
  brand: SQL;
  collection: SQL;
}

/**
 * The start of a module or cluster WHERE: live rows the caller sees, then the month, channel, brand and collection
 * filters in use; with `use`, which says whether a filter is in use (not left out and not empty).
 */
function itemWhereParts(f: SearchFilters, cols: ItemColumns, live: SQL, visibility: SQL, use: (key: FilterKey) => boolean): SQL[] {
  const parts: SQL[] = [live, visibility];
  if (use('monthId')) parts.push(inList(cols.month, f.monthId!));
  if (use('planningChannel')) parts.push(inList(cols.channel, f.planningChannel!));
  if (use('brand')) parts.push(inList(cols.brand, f.brand!));
  if (use('collection')) parts.push(inList(cols.collection, f.collection!));
  return parts;
}

/** Whether a filter of `f` is in use in a WHERE that leaves `omit` out. */
const inUse = (f: SearchFilters, omit?: FilterKey) => (key: FilterKey) => key !== omit && has(f[key]);

// ───────────────────────────── modules ─────────────────────────────

const M = {
  month: sql.raw('m.month_id'),
  channel: sql.raw('m.planning_channel_id'),
  brand: sql.raw('m.brand_code'),
  collection: sql.raw('m.collection'),
  family: sql.raw('m.macro_family'),
  label: sql.raw('m.module_label'),
  name: sql.raw('m.module_name'),
};

/**
 * Every item a caller sees is of one of their brands (`v.brands` holds the brand of every pair): said on its own as
 * well, so that the planner narrows the rows by the (month_id, brand_code, …) indexes before the per-row zone probes.
 * Without it a query with no brand filter probed every row of its months: the pending bell of a two-brand planner at
 * scale 100, 830 → 220 ms (docs/performance.md "Visibility narrowed by brand").
 */
const ofBrands = (column: string, v: Extract<Visibility, { all: false }>) => sql`${sql.raw(column)} IN ${v.brands}`;

function moduleVisibility(v: Visibility, zonesArray?: SQL): SQL {
  if (v.all) return TRUE;
  if (!v.brands.length) return FALSE;
  if (zonesArray) {
    // The list query has the module's zones at hand already: no second look into module_stars_zones.
    const zoned = v.pairs.length ? sql`EXISTS (SELECT 1 FROM unnest(${zonesArray}) AS vz(zone) WHERE (m.brand_code || '|' || vz.zone) IN ${v.pairs})` : FALSE;
    return and([ofBrands('m.brand_code', v), or([zoned, sql`${zonesArray} IS NULL`])]);
  }
  // Scalar subqueries rather than EXISTS: inside an OR, an EXISTS may be planned as a hash of the whole
  // zone table built once per query (tens of milliseconds at benchmark scale) even when only a handful
  // of items are looked at; a scalar subquery stays a probe of the item's own rows.
  const zoned = v.pairs.length
    ? sql`(SELECT 1 FROM module_stars_zones vz WHERE vz.module_id = m.id AND (m.brand_code || '|' || vz.stars_zone) IN ${v.pairs} LIMIT 1) IS NOT NULL`
    : FALSE;
  const zoneless = sql`(SELECT 1 FROM module_stars_zones vz WHERE vz.module_id = m.id LIMIT 1) IS NULL`;
  return and([ofBrands('m.brand_code', v), or([zoned, zoneless])]);
}

/**
 * The conditions of a module search; `omit` leaves one filter out (the options of that filter);
 * `zonesArray` is an expression holding the module's zones when the query already has it.
 */
export function moduleWhere(f: SearchFilters, v: Visibility, omit?: FilterKey, zonesArray?: SQL): SQL {
  const use = inUse(f, omit);
  const parts = itemWhereParts(f, M, sql`m.deletion_status IS NULL`, moduleVisibility(v, zonesArray), use);
  if (use('macroFamily')) parts.push(inList(M.family, f.macroFamily!));
  if (use('newModule')) parts.push(inList(sql.raw('m.new_module'), f.newModule!.map((x) => x === 'true')));
  if (use('starsZone')) {
    parts.push(sql`EXISTS (SELECT 1 FROM module_stars_zones fz WHERE fz.module_id = m.id AND fz.stars_zone IN ${[...new Set(f.starsZone!)]})`);
  }
  if (use('country')) {
    parts.push(
      sql`EXISTS (SELECT 1 FROM module_stars_zones fz JOIN countries co ON co.stars_zone = fz.stars_zone
                  WHERE fz.module_id = m.id AND co.country_code IN ${[...new Set(f.country!)]})`,
    );
  }
  if (use('starsCustomer')) {
    // A module serves a stars customer through the live clusters of its month that hold it.
    parts.push(
      sql`EXISTS (SELECT 1 FROM cluster_modules cm
                  JOIN clusters c ON c.id = cm.cluster_pk
                  JOIN cluster_stores cs ON cs.cluster_pk = c.id
                  JOIN stores s ON s.store_jda = cs.store_jda
                  WHERE cm.module_name = m.module_name AND cm.month_id = m.month_id AND cm.status = 'ADDED'
                    AND c.deletion_status IS NULL AND s.stars_customer IN ${[...new Set(f.starsCustomer!)]})`,
    );
  }
  if (use('moduleLabel')) parts.push(containsAny([M.label, M.name], f.moduleLabel!));
  return and(parts);
}

/** What a module row and a cluster row of a result list both hold. */
interface ItemListRow {
  id: number;
  monthId: string;
  collection: string;
  planningChannel: string | null;
  status: string;
  userLock: string | null;
  legoMonth: boolean;
  inOpenMonth: boolean;
  releaseClosed: boolean;
  door: number;
  rpasErrors: string | null;
  /** ISO 8601 (UTC). */
  publicationDate: string | null;
  updatedBy: string | null;
  /** ISO 8601 (UTC). */
  updatedAt: string;
}

export interface ModuleListRow extends ItemListRow {
  moduleName: string;
  moduleLabel: string;
  moduleDescription: string;
  macroFamily: string;
  specialKind: string | null;
  brand: string;
  /** Comma-separated (cheaper to read than an array for thousands of rows). */
  starZones: string | null;
  newModule: boolean;
  /** MH and EL SKUs not in the bin. */
  length: number;
  elLength: number;
  initialSize: number | null;
}

/** A timestamp as ISO 8601 text made by the database (reading thousands of Dates costs more). */
const isoText = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A list item's month and release state (`legoMonth`, `inOpenMonth`, `releaseClosed`) for the item of table alias `a`. */
const monthStateColumns = (a: 'm' | 'c') =>
  sql`${inLegoMonth(sql.raw(a))} AS "legoMonth", mo.open AS "inOpenMonth", COALESCE(r.status = 'CLOSED', FALSE) AS "releaseClosed"`;

/** A list item's last columns: RPAS errors, publication and last change, for the item of table alias `a`. */
const stampColumns = (a: 'm' | 'c') =>
  sql`${sql.raw(a)}.rpas_errors AS "rpasErrors", ${isoText(sql.raw(`${a}.publication_date`))} AS "publicationDate",
      ${sql.raw(a)}.updated_by AS "updatedBy", ${isoText(sql.raw(`${a}.updated_at`))} AS "updatedAt"`;

/** At most `limit` rows of a list: `columns` of the items of `from` that match `where`. */
const listQuery = (columns: SQL, from: SQL, where: SQL, limit: number) => sql`SELECT ${columns} ${from} WHERE ${where} LIMIT ${limit}`;

/**
 * As `listQuery`, each item written as JSON by the database (row_to_json of a row whose columns are the item's keys,
 * in its order: `itemColumns`) beside what the list is sorted by (`sortColumns`) and its lock's seconds left.
 */
const listJsonQuery = (sortColumns: SQL, from: SQL, itemColumns: SQL, where: SQL, ttlMinutes: number, limit: number) =>
  sql`SELECT ${sortColumns}, row_to_json(item)::text AS json, ${lockSecondsLeft(sql.raw('lk'), ttlMinutes)} AS "lockLeft"
        ${from}
        CROSS JOIN LATERAL (SELECT ${itemColumns}) item
        WHERE ${where}
        LIMIT ${limit}`;

const lockJoin = (type: ItemKind, keyColumn: SQL, monthColumn: SQL, ttlMinutes: number) =>
  sql`LEFT JOIN locks lk ON lk.item_type = ${type} AND lk.item_key = ${keyColumn} AND lk.month_id = ${monthColumn}
        AND ${liveLock(sql.raw('lk'), ttlMinutes)}`;

/**
 * What a module list reads beside the module (`moduleList`, `moduleListJson`): month, release, family, live
 * lock and zones (`zz.zones`, `moduleZonesArray`, NULL when none). The MH / EL counts of the lines not in the bin are
 * the module's own columns (`mh_count`, `el_count`, kept by the triggers of migration 0010): no look into module_skus
 * per module.
 */
const moduleListFrom = (ttlMinutes: number) =>
  sql`FROM modules m
        JOIN months mo ON mo.month_id = m.month_id
        LEFT JOIN releases r ON r.release_id = mo.release_id
        LEFT JOIN macro_families mf ON mf.macro_family = m.macro_family
        ${lockJoin('module', sql.raw('m.module_name'), sql.raw('m.month_id'), ttlMinutes)}
        LEFT JOIN LATERAL (SELECT NULLIF(${moduleZonesArray(sql.raw('m.id'))}, '{}') AS zones OFFSET 0) zz ON TRUE`;

/** What a cluster list reads beside the cluster (`clusterList`, `clusterListJson`): month, release and live lock. */
const clusterListFrom = (ttlMinutes: number) =>
  sql`FROM clusters c
        JOIN months mo ON mo.month_id = c.month_id
        LEFT JOIN releases r ON r.release_id = mo.release_id
        ${lockJoin('cluster', sql.raw('c.cluster_id'), sql.raw('c.month_id'), ttlMinutes)}`;

/** A list's WHERE narrowed to its items (of table alias `a`) of row ids `ids`: a kept answer's refresh. */
export const whereRowIds = (a: 'm' | 'c', where: SQL, ids: readonly number[]): SQL => sql`(${where}) AND ${sql.raw(a)}.id = ANY(${sql.param([...ids])}::bigint[])`;

/** A cluster's doors: its stores. */
const CLUSTER_DOORS = sql`(SELECT count(*)::int FROM cluster_stores cs WHERE cs.cluster_pk = c.id) AS door`;

/** The module's zones as the list query names them (for `moduleWhere(…, zonesArray)`). */
export const LIST_ZONES = sql.raw('zz.zones');

/** At most `limit` modules of the search (`where` built with LIST_ZONES), with what a result list shows (no SKU lists). */
export async function moduleList(db: Queryable, where: SQL, ttlMinutes: number, limit: number): Promise<ModuleListRow[]> {
  const columns = sql`m.id, m.module_name AS "moduleName", m.module_label AS "moduleLabel", m.module_description AS "moduleDescription",
               m.month_id AS "monthId", m.macro_family AS "macroFamily", mf.special_kind AS "specialKind",
               m.brand_code AS brand, m.collection, m.planning_channel_id AS "planningChannel",
               array_to_string(zz.zones, ',') AS "starZones",
               m.status, m.new_module AS "newModule", lk.owner AS "userLock", ${monthStateColumns('m')},
               m.door, m.mh_count AS length, m.el_count AS "elLength", m.initial_size AS "initialSize", ${stampColumns('m')}`;
  const rows = await queryRows<ModuleListRow>(db, listQuery(columns, moduleListFrom(ttlMinutes), where, limit));
  return rows.map((r) => ({ ...r, id: Number(r.id), door: Number(r.door), length: Number(r.length), elLength: Number(r.elLength) }));
}

/** A list item as the database wrote it (the answer's JSON) with what the list is sorted by. */
export interface ModuleListJson {
  /** The module's row id. */
  id: number;
  macroFamily: string;
  specialKind: string | null;
  moduleLabel: string;
  moduleName: string;
  monthId: string;
  /** The ModuleListItem, keys in the answer's order. */
  json: string;
  /** Seconds until its lock stops being live with time alone; null when not locked. */
  lockLeft: number | null;
}

/**
 * As `moduleList`, each module written as its ModuleListItem JSON by the database (row_to_json of a
 * row whose columns are the item's keys, in its order): reading and writing again 25 columns of
 * thousands of rows in Node cost more than the query (docs/performance.md, section 1).
 */
export function moduleListJsonQuery(where: SQL, ttlMinutes: number, limit: number): SQL {
  const sortColumns = sql`m.id::float8 AS id, m.macro_family AS "macroFamily", mf.special_kind AS "specialKind", m.module_label AS "moduleLabel",
               m.module_name AS "moduleName", m.month_id AS "monthId"`;
  const itemColumns = sql`m.module_name AS "moduleName", m.module_label AS "moduleLabel", m.module_description AS "moduleDescription",
                 m.month_id AS "monthId", m.macro_family AS "macroFamily", m.brand_code AS brand, m.collection,
                 m.planning_channel_id AS "planningChannel", COALESCE(to_json(zz.zones), '[]'::json) AS "starZones",
                 m.status, m.new_module AS "newModule", lk.owner IS NOT NULL AS locked, lk.owner AS "userLock", ${monthStateColumns('m')},
                 m.door, m.mh_count AS length, m.el_count AS "elLength", m.initial_size AS "initialSize", ${stampColumns('m')}`;
  return listJsonQuery(sortColumns, moduleListFrom(ttlMinutes), itemColumns, where, ttlMinutes, limit);
}

export async function countRows(db: Queryable, kind: ItemKind, where: SQL): Promise<number> {
  const from = kind === 'module' ? sql.raw('modules m') : sql.raw('clusters c');
  const [row] = await queryRows<{ count: number | string }>(db, sql`SELECT count(*)::int AS count FROM ${from} WHERE ${where}`);
  return Number(row?.count ?? 0);
}

/**
 * One row per candidate value (each row of `table`) that at least one item matches: `probe` is a
 * SELECT of the items matching the candidate, read with LIMIT 1 in a LATERAL join. The LIMIT makes the
 * planner walk an index and stop at the first hit (tenths of a millisecond per value), where an EXISTS
 * lets it hash every item of the month first.
 */
const candidates = (table: SQL, value: SQL, probe: SQL, outerWhere?: SQL) =>
  sql`SELECT ${value} AS value FROM ${table} CROSS JOIN LATERAL (${probe} LIMIT 1) hit${outerWhere ? sql` WHERE ${outerWhere}` : sql``}`;

/** The reference table of each filter that modules and clusters both hold as a column of their own. */
const OWN_COLUMN_OPTIONS: Partial<Record<FilterKey, { table: string; code: string; column: string }>> = {
  monthId: { table: 'months', code: 'month_id', column: 'month_id' },
  planningChannel: { table: 'planning_channels', code: 'planning_channel_id', column: 'planning_channel_id' },
  brand: { table: 'brands', code: 'brand_code', column: 'brand_code' },
  collection: { table: 'collections', code: 'collection_code', column: 'collection' },
};

/**
 * The options query of a filter of OWN_COLUMN_OPTIONS for the items of alias `a` (`m` or `c`): `probe(condition)` is the
 * SELECT of the matching items that also meet `condition`. The brand candidates are narrowed to `brands` when given
 * (null: none to find). undefined when `key` is not such a filter.
 */
function ownColumnOptionQuery(key: FilterKey, a: 'm' | 'c', probe: (condition: SQL) => SQL, brands?: readonly string[]): SQL | null | undefined {
  const own = OWN_COLUMN_OPTIONS[key];
  if (!own) return undefined;
  let narrowed: SQL | undefined;
  if (key === 'brand' && brands) {
    if (brands.length === 0) return null;
    narrowed = sql`t.brand_code IN ${[...brands]}`;
  }
  const code = sql.raw(`t.${own.code}`);
  return candidates(sql.raw(`${own.table} t`), code, probe(sql`${sql.raw(`${a}.${own.column}`)} = ${code}`), narrowed);
}

/** Runs one filter's query of `moduleOptionQuery` / `clusterOptionQuery` (null: no value). */
async function valuesOf(db: Queryable, query: SQL | null): Promise<string[]> {
  return query ? (await queryRows<{ value: string }>(db, query)).map((r) => r.value) : [];
}

/**
 * The values of several filters' queries (`moduleOptionQuery` / `clusterOptionQuery`) in one statement, by key:
 * one round trip where a query each took one, each on a pool connection of its own (issue 19, target 1).
 */
export async function optionValuesByKey(db: Queryable, queries: ReadonlyMap<FilterKey, SQL | null>): Promise<Map<FilterKey, string[]>> {
  const out = new Map<FilterKey, string[]>();
  const parts: SQL[] = [];
  for (const [key, query] of queries) {
    out.set(key, []);
    if (query) parts.push(sql`SELECT ${key}::text AS key, o.value::text AS value FROM (${query}) o`);
  }
  if (parts.length === 0) return out;
  for (const row of await queryRows<{ key: FilterKey; value: string }>(db, sql.join(parts, sql` UNION ALL `))) out.get(row.key)!.push(row.value);
  return out;
}

/**
 * The values of one filter found among the modules matching `where` (built without that filter).
 * `brands` narrows the brand candidates to those the caller can see at all.
 */
export async function moduleOptionValues(db: Queryable, key: FilterKey, where: SQL, brands?: readonly string[]): Promise<string[]> {
  return valuesOf(db, moduleOptionQuery(key, where, brands));
}

/** The query of `moduleOptionValues` (a `value` column), or null when it has no value to find. */
export function moduleOptionQuery(key: FilterKey, where: SQL, brands?: readonly string[]): SQL | null {
  const probe = (condition: SQL) => sql`SELECT 1 FROM modules m WHERE ${condition} AND ${where}`;
  const zoneProbe = (condition: SQL) => sql`SELECT 1 FROM modules m JOIN module_stars_zones z ON z.module_id = m.id WHERE ${condition} AND ${where}`;
  const own = ownColumnOptionQuery(key, 'm', probe, brands);
  if (own !== undefined) return own;
  let query: SQL;
  switch (key) {
    case 'macroFamily':
      query = candidates(sql`macro_families t`, sql`t.macro_family`, probe(sql`m.macro_family = t.macro_family`));
      break;
    case 'newModule':
      query = candidates(sql`(VALUES ('true'), ('false')) AS t(value)`, sql`t.value`, probe(sql`m.new_module = (t.value = 'true')`));
      break;
    case 'starsZone':
      query = candidates(sql`stars_zones t`, sql`t.zone_code`, zoneProbe(sql`z.stars_zone = t.zone_code`));
      break;
    case 'country':
      query = candidates(sql`countries t`, sql`t.country_code`, zoneProbe(sql`z.stars_zone = t.stars_zone`));
      break;
    case 'starsCustomer':
      query = sql`SELECT DISTINCT s.stars_customer AS value FROM modules m
                  JOIN cluster_modules cm ON cm.module_name = m.module_name AND cm.month_id = m.month_id AND cm.status = 'ADDED'
                  JOIN clusters c ON c.id = cm.cluster_pk AND c.deletion_status IS NULL
                  JOIN cluster_stores cs ON cs.cluster_pk = c.id JOIN stores s ON s.store_jda = cs.store_jda
                  WHERE ${where}`;
      break;
    default:
      return null;
  }
  return query;
}

// ───────────────────────────── clusters ─────────────────────────────

const C = {
  month: sql.raw('c.month_id'),
  channel: sql.raw('c.planning_channel_id'),
  brand: sql.raw('c.brand_code'),
  collection: sql.raw('c.collection'),
  id: sql.raw('c.cluster_id'),
  label: sql.raw('c.cluster_label'),
  rangeFacing: sql.raw('c.range_facing'),
};

/** A cluster's scope zones are the zones of its countries (docs/LIFECYCLE.md). */
function clusterVisibility(v: Visibility): SQL {
  if (v.all) return TRUE;
  if (!v.brands.length) return FALSE;
  // Scalar subqueries, as for modules; the brands said on their own, as for modules.
  const zoned = v.pairs.length
    ? sql`(SELECT 1 FROM cluster_countries vc JOIN countries vco ON vco.country_code = vc.country_code
           WHERE vc.cluster_pk = c.id AND (c.brand_code || '|' || vco.stars_zone) IN ${v.pairs} LIMIT 1) IS NOT NULL`
    : FALSE;
  const zoneless = sql`(SELECT 1 FROM cluster_countries vc WHERE vc.cluster_pk = c.id LIMIT 1) IS NULL`;
  return and([ofBrands('c.brand_code', v), or([zoned, zoneless])]);
}

const storeCondition = (condition: SQL) =>
  sql`EXISTS (SELECT 1 FROM cluster_stores fs JOIN stores s ON s.store_jda = fs.store_jda WHERE fs.cluster_pk = c.id AND ${condition})`;

export function clusterWhere(f: SearchFilters, v: Visibility, omit?: FilterKey): SQL {
  const use = inUse(f, omit);
  const parts = itemWhereParts(f, C, sql`c.deletion_status IS NULL`, clusterVisibility(v), use);
  if (use('clusterId')) parts.push(inList(C.id, f.clusterId!));
  if (use('rangeFacing')) parts.push(inList(C.rangeFacing, f.rangeFacing!));
  if (use('starsZone')) {
    parts.push(sql`EXISTS (SELECT 1 FROM cluster_stars_zones fz WHERE fz.cluster_pk = c.id AND fz.stars_zone IN ${[...new Set(f.starsZone!)]})`);
  }
  if (use('country')) {
    parts.push(sql`EXISTS (SELECT 1 FROM cluster_countries fc WHERE fc.cluster_pk = c.id AND fc.country_code IN ${[...new Set(f.country!)]})`);
  }
  if (use('starsCustomer')) parts.push(storeCondition(inList(sql.raw('s.stars_customer'), f.starsCustomer!)));
  if (use('customerSegmentation')) parts.push(storeCondition(inList(sql.raw('s.customer_segmentation'), f.customerSegmentation!)));
  if (use('storeJda')) parts.push(storeCondition(inList(sql.raw('s.store_jda'), f.storeJda!)));
  if (use('codiceStoreSap')) parts.push(storeCondition(inList(sql.raw('s.codice_store_sap'), f.codiceStoreSap!)));
  if (use('clientClassification')) {
    const values = [...new Set(f.clientClassification!)];
    const ids = values.filter((x) => /^\d{1,9}$/.test(x)).map(Number);
    const byId = ids.length ? sql` OR cl.classification_id IN ${ids}` : sql``;
    parts.push(
      sql`EXISTS (SELECT 1 FROM cluster_classifications fcl JOIN client_classifications cl ON cl.classification_id = fcl.classification_id
                  WHERE fcl.cluster_pk = c.id AND (cl.classification_label IN ${values}${byId}))`,
    );
  }
  if (use('clusterLabel')) parts.push(containsAny([C.label, C.id], f.clusterLabel!));
  return and(parts);
}

export interface ClusterListRow extends ItemListRow {
  clusterId: string;
  clusterLabel: string;
  clusterDescription: string;
  brandCode: string;
  country: string[] | null;
  starZones: string[] | null;
  rangeFacing: string | null;
}

export async function clusterList(db: Queryable, where: SQL, ttlMinutes: number, limit: number): Promise<ClusterListRow[]> {
  const columns = sql`c.id, c.cluster_id AS "clusterId", c.cluster_label AS "clusterLabel", c.cluster_description AS "clusterDescription",
               c.month_id AS "monthId", c.brand_code AS "brandCode", c.collection, c.planning_channel_id AS "planningChannel",
               (SELECT array_agg(cc.country_code ORDER BY cc.country_code) FROM cluster_countries cc WHERE cc.cluster_pk = c.id) AS country,
               (SELECT array_agg(z.stars_zone ORDER BY z.stars_zone) FROM cluster_stars_zones z WHERE z.cluster_pk = c.id) AS "starZones",
               c.status, lk.owner AS "userLock", ${monthStateColumns('c')},
               c.range_facing AS "rangeFacing", ${CLUSTER_DOORS}, ${stampColumns('c')}`;
  const rows = await queryRows<ClusterListRow>(db, listQuery(columns, clusterListFrom(ttlMinutes), where, limit));
  return rows.map((r) => ({ ...r, id: Number(r.id), door: Number(r.door) }));
}

/** A cluster of a list as the database wrote it (the answer's JSON) with what the list is sorted by. */
export interface ClusterListJson {
  /** The cluster's row id. */
  id: number;
  clusterLabel: string;
  clusterId: string;
  monthId: string;
  /** The ClusterListItem, keys in the answer's order. */
  json: string;
  /** Seconds until its lock stops being live with time alone; null when not locked. */
  lockLeft: number | null;
}

/** As `clusterList`, each cluster written as its ClusterListItem JSON by the database (as `moduleListJsonQuery`). */
export function clusterListJsonQuery(where: SQL, ttlMinutes: number, limit: number): SQL {
  const sortColumns = sql`c.id::float8 AS id, c.cluster_label AS "clusterLabel", c.cluster_id AS "clusterId", c.month_id AS "monthId"`;
  const itemColumns = sql`c.cluster_id AS "clusterId", c.cluster_label AS "clusterLabel", c.cluster_description AS "clusterDescription",
                 c.month_id AS "monthId", c.brand_code AS "brandCode", c.collection, c.planning_channel_id AS "planningChannel",
                 to_json(ARRAY(SELECT cc.country_code FROM cluster_countries cc WHERE cc.cluster_pk = c.id ORDER BY cc.country_code)) AS country,
                 to_json(ARRAY(SELECT z.stars_zone FROM cluster_stars_zones z WHERE z.cluster_pk = c.id ORDER BY z.stars_zone)) AS "starZones",
                 c.status, lk.owner IS NOT NULL AS locked, lk.owner AS "userLock", ${monthStateColumns('c')},
                 c.range_facing AS "rangeFacing", ${CLUSTER_DOORS}, ${stampColumns('c')}`;
  return listJsonQuery(sortColumns, clusterListFrom(ttlMinutes), itemColumns, where, ttlMinutes, limit);
}

/** As `moduleOptionValues`, for clusters. */
export async function clusterOptionValues(db: Queryable, key: FilterKey, where: SQL, brands?: readonly string[]): Promise<string[]> {
  return valuesOf(db, clusterOptionQuery(key, where, brands));
}

/** The query of `clusterOptionValues`, or null. */
export function clusterOptionQuery(key: FilterKey, where: SQL, brands?: readonly string[]): SQL | null {
  const probe = (join: SQL, condition: SQL) => sql`SELECT 1 FROM clusters c ${join} WHERE ${condition} AND ${where}`;
  const none = sql``;
  const storeJoin = sql`JOIN cluster_stores cs ON cs.cluster_pk = c.id JOIN stores s ON s.store_jda = cs.store_jda`;
  const own = ownColumnOptionQuery(key, 'c', (condition) => probe(none, condition), brands);
  if (own !== undefined) return own;
  let query: SQL;
  switch (key) {
    case 'starsZone':
      query = candidates(sql`stars_zones t`, sql`t.zone_code`, probe(sql`JOIN cluster_stars_zones z ON z.cluster_pk = c.id`, sql`z.stars_zone = t.zone_code`));
      break;
    case 'country':
      query = candidates(sql`countries t`, sql`t.country_code`, probe(sql`JOIN cluster_countries cc ON cc.cluster_pk = c.id`, sql`cc.country_code = t.country_code`));
      break;
    case 'customerSegmentation':
      query = candidates(sql`customer_segmentations t`, sql`t.segmentation_code`, probe(storeJoin, sql`s.customer_segmentation = t.segmentation_code`));
      break;
    case 'clientClassification':
      query = candidates(
        sql`client_classifications t`,
        sql`t.classification_label`,
        probe(sql`JOIN cluster_classifications fcl ON fcl.cluster_pk = c.id`, sql`fcl.classification_id = t.classification_id`),
      );
      break;
    case 'starsCustomer':
      query = sql`SELECT DISTINCT s.stars_customer AS value FROM clusters c ${storeJoin} WHERE ${where}`;
      break;
    case 'rangeFacing':
      query = sql`SELECT DISTINCT c.range_facing AS value FROM clusters c WHERE ${where} AND c.range_facing IS NOT NULL`;
      break;
    default:
      return null;
  }
  return query;
}

// ───────────────────────────── labels ─────────────────────────────

/** People's names of filter values (brand descriptions, channel labels …), by key. */
export async function optionLabels(db: Queryable, keys: readonly FilterKey[], values: ReadonlyMap<FilterKey, readonly string[]>): Promise<Map<string, string>> {
  const queries: Partial<Record<FilterKey, SQL>> = {
    brand: sql`SELECT brand_code AS value, description AS label FROM brands`,
    planningChannel: sql`SELECT planning_channel_id AS value, label FROM planning_channels`,
    collection: sql`SELECT collection_code AS value, description AS label FROM collections`,
    starsZone: sql`SELECT zone_code AS value, description AS label FROM stars_zones`,
    country: sql`SELECT country_code AS value, name AS label FROM countries`,
    customerSegmentation: sql`SELECT segmentation_code AS value, label FROM customer_segmentations`,
  };
  const parts: SQL[] = [];
  for (const key of new Set(keys)) {
    let query = queries[key];
    if (key === 'starsCustomer') {
      const wanted = values.get(key) ?? [];
      if (wanted.length > 0) query = sql`SELECT customer_code AS value, name AS label FROM stars_customers WHERE customer_code IN ${[...wanted]}`;
    }
    if (query) parts.push(sql`SELECT ${key}::text AS key, l.value, l.label FROM (${query}) l`);
  }
  const out = new Map<string, string>();
  if (parts.length === 0) return out;
  // One statement for every key's labels (one round trip, not one per key).
  for (const r of await queryRows<{ key: string; value: string; label: string }>(db, sql.join(parts, sql` UNION ALL `))) out.set(`${r.key}|${r.value}`, r.label);
  return out;
}

/** Every month, channel, brand, collection, stars zone and country: the home's filters before any choice. */
export interface ReferenceOptions {
  monthRows: { monthId: string }[];
  channelRows: { planningChannelId: string; label: string }[];
  brandRows: { brandCode: string; description: string }[];
  collectionRows: { collectionCode: string; description: string }[];
  zoneRows: { zoneCode: string; description: string }[];
  countryRows: { countryCode: string; name: string; starsZone: string }[];
}

/** The reference lists of the home's first options, each in code order, in one statement (one round trip, not six). */
export async function referenceOptions(db: Queryable): Promise<ReferenceOptions> {
  const [row] = await queryRows<ReferenceOptions>(
    db,
    sql`SELECT
          COALESCE((SELECT json_agg(json_build_object('monthId', month_id)) FROM months), '[]') AS "monthRows",
          COALESCE((SELECT json_agg(json_build_object('planningChannelId', planning_channel_id, 'label', label) ORDER BY planning_channel_id)
                      FROM planning_channels), '[]') AS "channelRows",
          COALESCE((SELECT json_agg(json_build_object('brandCode', brand_code, 'description', description) ORDER BY brand_code) FROM brands), '[]') AS "brandRows",
          COALESCE((SELECT json_agg(json_build_object('collectionCode', collection_code, 'description', description) ORDER BY collection_code)
                      FROM collections), '[]') AS "collectionRows",
          COALESCE((SELECT json_agg(json_build_object('zoneCode', zone_code, 'description', description) ORDER BY zone_code) FROM stars_zones), '[]') AS "zoneRows",
          COALESCE((SELECT json_agg(json_build_object('countryCode', country_code, 'name', name, 'starsZone', stars_zone) ORDER BY country_code)
                      FROM countries), '[]') AS "countryRows"`,
  );
  return row!;
}

const dialect = new PgDialect();

/** A query's text and parameters as PostgreSQL receives them (what a kept list answer is keyed by). */
export function compiledQuery(query: SQL): { sql: string; params: unknown[] } {
  return dialect.sqlToQuery(query);
}
