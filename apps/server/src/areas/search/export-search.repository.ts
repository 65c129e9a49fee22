/**
 * The SQL of the Export Data page. It is the home search's SQL (search.repository.ts: one WHERE
 * builder per kind, the same option queries) with three additions:
 * - the status checkboxes (`m.status` / `c.status` among the ticked ones);
 * - filters of the other kind: a module search keeps the modules ADDED in a cluster of their month that
 *   matches every cluster-only filter; a cluster search keeps the clusters holding (ADDED) a module that
 *   matches every module-only filter;
 * - option lists the home does not offer (module labels, cluster ids and labels, stores, SAP codes).
 */
import { sql, type SQL } from 'drizzle-orm';
import { EXPORT_CLUSTER_KEYS, EXPORT_MODULE_KEYS, STATUSES_OF, type ExportFilterKey, type ExportSearchStatus } from '@bo/shared/export-search';
import type { SearchFilters } from '@bo/shared/search';
import { queryRows, type Queryable } from '../../db/client.js';
import { clusterOptionValues, clusterWhere, moduleOptionValues, moduleWhere } from './search.repository.js';
import type { Visibility } from '../../lib/visibility.js';

/** No visibility condition: the other kind's side of a search (the searched item carries the rights). */
const EVERYTHING: Visibility = { all: true };

export interface ExportWhereInput {
  filters: SearchFilters;
  statuses: readonly ExportSearchStatus[];
  visibility: Visibility;
}

const only = (f: SearchFilters, keys: readonly ExportFilterKey[], omit?: ExportFilterKey): SearchFilters => {
  const out: SearchFilters = {};
  for (const key of keys) if (key !== omit && f[key]?.length) (out as Record<string, unknown>)[key] = f[key];
  return out;
};
const isEmpty = (f: SearchFilters) => Object.keys(f).length === 0;
const statusList = (statuses: readonly ExportSearchStatus[]) => [...new Set(statuses.flatMap((s) => STATUSES_OF[s]))];

/** `m` (outer) is ADDED in a cluster `c` of its month for which `clusterCondition` holds. */
const inMatchingCluster = (clusterCondition: SQL) =>
  sql`EXISTS (SELECT 1 FROM cluster_modules xm JOIN clusters c ON c.id = xm.cluster_pk
              WHERE xm.module_name = m.module_name AND xm.month_id = m.month_id AND xm.status = 'ADDED' AND ${clusterCondition})`;

/** `c` (outer) holds (ADDED) a module `m` of its month for which `moduleCondition` holds. */
const holdsMatchingModule = (moduleCondition: SQL) =>
  sql`EXISTS (SELECT 1 FROM cluster_modules xm JOIN modules m ON m.module_name = xm.module_name AND m.month_id = xm.month_id
              WHERE xm.cluster_pk = c.id AND xm.status = 'ADDED' AND ${moduleCondition})`;

/**
 * The item's own conditions: its filters (moduleWhere and clusterWhere read only the keys of their kind),
 * its status and the caller's rights.
 */
const moduleOwn = ({ filters, statuses, visibility }: ExportWhereInput, omit?: ExportFilterKey, zonesArray?: SQL) =>
  sql`${moduleWhere(filters, visibility, omit, zonesArray)} AND m.status IN ${statusList(statuses)}`;

const clusterOwn = ({ filters, statuses, visibility }: ExportWhereInput, omit?: ExportFilterKey) =>
  sql`${clusterWhere(filters, visibility, omit)} AND c.status IN ${statusList(statuses)}`;

/** Modules the export search lists (`omit` leaves one filter out: that filter's options). */
export function moduleSearchWhere(input: ExportWhereInput, omit?: ExportFilterKey, zonesArray?: SQL): SQL {
  const clusterSide = only(input.filters, EXPORT_CLUSTER_KEYS, omit);
  const own = moduleOwn(input, omit, zonesArray);
  return isEmpty(clusterSide) ? own : sql`${own} AND ${inMatchingCluster(clusterWhere(clusterSide, EVERYTHING))}`;
}

/** Clusters the export search lists. */
export function clusterSearchWhere(input: ExportWhereInput, omit?: ExportFilterKey): SQL {
  const moduleSide = only(input.filters, EXPORT_MODULE_KEYS, omit);
  const own = clusterOwn(input, omit);
  return isEmpty(moduleSide) ? own : sql`${own} AND ${holdsMatchingModule(moduleWhere(moduleSide, EVERYTHING))}`;
}

/** Option lists the home search does not have: values with their people's names. */
async function extraModuleOptions(db: Queryable, key: ExportFilterKey, where: SQL) {
  if (key !== 'moduleLabel') return null;
  return queryRows<{ value: string; label: string }>(db, sql`SELECT DISTINCT m.module_label AS value, m.module_label AS label FROM modules m WHERE ${where}`);
}

async function extraClusterOptions(db: Queryable, key: ExportFilterKey, where: SQL) {
  const stores = sql`JOIN cluster_stores cs ON cs.cluster_pk = c.id JOIN stores s ON s.store_jda = cs.store_jda`;
  switch (key) {
    case 'clusterId':
      return queryRows<{ value: string; label: string }>(db, sql`SELECT DISTINCT c.cluster_id AS value, c.cluster_label AS label FROM clusters c WHERE ${where}`);
    case 'clusterLabel':
      return queryRows<{ value: string; label: string }>(db, sql`SELECT DISTINCT c.cluster_label AS value, c.cluster_label AS label FROM clusters c WHERE ${where}`);
    case 'storeJda':
      return queryRows<{ value: string; label: string }>(db, sql`SELECT DISTINCT s.store_jda AS value, s.name AS label FROM clusters c ${stores} WHERE ${where}`);
    case 'codiceStoreSap':
      return queryRows<{ value: string; label: string }>(db, sql`SELECT DISTINCT s.codice_store_sap AS value, s.name AS label FROM clusters c ${stores} WHERE ${where}`);
    default:
      return null;
  }
}

type OptionValues = { value: string; label?: string }[];

const valuesOf = (list: string[]): OptionValues => list.map((value) => ({ value }));

async function moduleValues(db: Queryable, key: ExportFilterKey, where: SQL, brands?: readonly string[]): Promise<OptionValues> {
  return (await extraModuleOptions(db, key, where)) ?? valuesOf(await moduleOptionValues(db, key, where, brands));
}

async function clusterValues(db: Queryable, key: ExportFilterKey, where: SQL, brands?: readonly string[]): Promise<OptionValues> {
  return (await extraClusterOptions(db, key, where)) ?? valuesOf(await clusterOptionValues(db, key, where, brands));
}

const isClusterOnly = (key: ExportFilterKey) => (EXPORT_CLUSTER_KEYS as readonly string[]).includes(key);
const isModuleOnly = (key: ExportFilterKey) => (EXPORT_MODULE_KEYS as readonly string[]).includes(key);

/**
 * The values of one filter among the items the search would list without that filter. A filter of the
 * other kind offers the values of the other kind's items that hold, or sit in, a listed item.
 */
export async function exportOptionValues(db: Queryable, kind: 'module' | 'cluster', key: ExportFilterKey, input: ExportWhereInput): Promise<OptionValues> {
  const brands = input.visibility.all ? undefined : input.visibility.brands;
  if (kind === 'module') {
    if (!isClusterOnly(key)) return moduleValues(db, key, moduleSearchWhere(input, key), brands);
    const where = sql`${clusterWhere(only(input.filters, EXPORT_CLUSTER_KEYS), EVERYTHING, key)} AND ${holdsMatchingModule(moduleOwn(input))}`;
    return clusterValues(db, key, where);
  }
  if (!isModuleOnly(key)) return clusterValues(db, key, clusterSearchWhere(input, key), brands);
  const where = sql`${moduleWhere(only(input.filters, EXPORT_MODULE_KEYS), EVERYTHING, key)} AND ${inMatchingCluster(clusterOwn(input))}`;
  return moduleValues(db, key, where);
}
