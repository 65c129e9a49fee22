/**
 * The Export Data page (part 2 §2, §3 "Export filters", §5, §8): filter options that narrow each other
 * as on home, and the export search by month, status and filters. Only items the caller may export are
 * offered or listed (part 1 §6: admin, or an edit grant on the item's brand and zone); a caller without
 * any edit grant is refused. A search past MAX_SEARCH_RESULTS answers 413.
 */
import {
  EXPORT_FILTER_KEYS,
  EXPORT_SEARCH_TEXTS,
  type ClusterExportResult,
  type ExportFilterKey,
  type ExportSearchStatus,
  type ModuleExportResult,
} from '@bo/shared/export-search';
import { compareMonthIds } from '@bo/shared/months';
import { canExportAny } from '@bo/shared/permissions';
import type { FilterOptions, SearchFilters } from '@bo/shared/search';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden } from '../../lib/errors.js';
import { LIST_ZONES, optionLabels } from './search.repository.js';
import { byCodePoint, byText } from '../../lib/text-order.js';
import { clusterListRows, moduleListRows } from './search.service.js';
import { visibilityOf } from '../../lib/visibility.js';
import { clusterSearchWhere, exportOptionValues, moduleSearchWhere, type ExportWhereInput } from './export-search.repository.js';

export type ItemKind = 'module' | 'cluster';

/** A body of the page's calls once validated: the filters and the ticked statuses. */
type ExportSearchBody = SearchFilters & { status: ExportSearchStatus[] };


function whereInput(ctx: ServiceContext, body: ExportSearchBody): ExportWhereInput {
  if (!canExportAny(ctx.user.grants)) throw forbidden(EXPORT_SEARCH_TEXTS.noRight);
  const { status, ...filters } = body;
  return { filters, statuses: status, visibility: visibilityOf(ctx.user.grants, ['edit']) };
}

const NEW_MODULE_LABELS: Record<string, string> = { true: 'Newness', false: 'Carry Over' };

/**
 * POST /api/{module|cluster}/exportFilters: per filter, the values found among the items the search
 * would list with every *other* filter, so each filter keeps its alternatives while the rest narrow it.
 */
export async function exportFilterOptions(ctx: ServiceContext, kind: ItemKind, body: ExportSearchBody, keys?: readonly string[]): Promise<FilterOptions> {
  const input = whereInput(ctx, body);
  const wanted = EXPORT_FILTER_KEYS.filter((k) => !keys || keys.includes(k));
  const found = new Map<ExportFilterKey, { value: string; label?: string }[]>();
  await Promise.all(wanted.map(async (key) => found.set(key, await exportOptionValues(ctx.db, kind, key, input))));
  const plainValues = new Map(wanted.map((k) => [k, (found.get(k) ?? []).filter((o) => o.label === undefined).map((o) => o.value)] as const));
  const labels = await optionLabels(ctx.db, wanted, plainValues);
  const out: FilterOptions = {};
  for (const key of wanted) {
    const unique = new Map<string, string>();
    for (const o of found.get(key) ?? []) {
      const label = o.label ?? (key === 'newModule' ? NEW_MODULE_LABELS[o.value] : labels.get(`${key}|${o.value}`)) ?? o.value;
      if (!unique.has(o.value)) unique.set(o.value, label);
    }
    const options = [...unique].map(([value, label]) => ({ value, label }));
    out[key] = key === 'monthId' ? options.sort((a, b) => compareMonthIds(a.value, b.value)) : options.sort((a, b) => byText(a.label, b.label) || byCodePoint(a.value, b.value));
  }
  return out;
}

/** POST /api/module/exportSearch: the modules to export, by label, name and month. */
export async function searchModulesToExport(ctx: ServiceContext, body: ExportSearchBody): Promise<ModuleExportResult[]> {
  const rows = await moduleListRows(ctx, moduleSearchWhere(whereInput(ctx, body), undefined, LIST_ZONES), EXPORT_SEARCH_TEXTS.tooManyResults);
  rows.sort((a, b) => byText(a.moduleLabel, b.moduleLabel) || byText(a.moduleName, b.moduleName) || compareMonthIds(a.monthId, b.monthId));
  return rows.map((r) => ({
    moduleName: r.moduleName,
    moduleLabel: r.moduleLabel,
    monthId: r.monthId,
    macroFamily: r.macroFamily,
    brand: r.brand,
    collection: r.collection,
    planningChannel: r.planningChannel,
    starZones: r.starZones ? r.starZones.split(',') : [],
    status: r.status as ModuleExportResult['status'],
    newModule: r.newModule,
    legoMonth: r.legoMonth,
    length: r.length,
    elLength: r.elLength,
  }));
}

/** POST /api/cluster/exportSearch: the clusters to export, by label, id and month. */
export async function searchClustersToExport(ctx: ServiceContext, body: ExportSearchBody): Promise<ClusterExportResult[]> {
  const rows = await clusterListRows(ctx, clusterSearchWhere(whereInput(ctx, body)), EXPORT_SEARCH_TEXTS.tooManyResults);
  return rows.map((r) => ({
    clusterId: r.clusterId,
    clusterLabel: r.clusterLabel,
    monthId: r.monthId,
    brandCode: r.brandCode,
    collection: r.collection,
    planningChannel: r.planningChannel,
    country: r.country ?? [],
    starZones: r.starZones ?? [],
    status: r.status as ClusterExportResult['status'],
    legoMonth: r.legoMonth,
    rangeFacing: r.rangeFacing,
    door: r.door,
  }));
}
