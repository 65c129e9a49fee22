import { clusterKeyString, moduleKeyString } from '@bo/shared/item-keys';
import {
  EXPORT_FILTER_KEYS,
  exportStatusFor,
  type ClusterExportResult,
  type ExportFilterKey,
  type ExportSearchRequest,
  type ExportSearchStatus,
  type ModuleExportResult,
} from '@bo/shared/export-search';
import type { ClusterExportItem, ModuleExportItem } from '@bo/shared/exports';
import type { FilterOption, FilterOptions } from '@bo/shared/search';

/** Module or Cluster: the page's 'Type of results'. */
export type ExportKind = 'module' | 'cluster';

/** Every filter but the month, in the spec's order (part 2 §3 "Export filters"). */
export const REFINE_EXPORT_KEYS = EXPORT_FILTER_KEYS.filter((k) => k !== 'monthId') as Exclude<ExportFilterKey, 'monthId'>[];

/** The sidebar's choices. */
export interface ExportSelection {
  kind: ExportKind;
  statuses: ExportSearchStatus[];
  filters: Record<ExportFilterKey, string[]>;
}

export const emptyFilters = (): Record<ExportFilterKey, string[]> => Object.fromEntries(EXPORT_FILTER_KEYS.map((k) => [k, []])) as unknown as Record<ExportFilterKey, string[]>;

export const INITIAL_SELECTION: ExportSelection = { kind: 'module', statuses: ['Published'], filters: emptyFilters() };

/** Search is disabled until at least one month is chosen (part 2 §5), and needs a status. */
export const canSearch = (s: ExportSelection) => s.filters.monthId.length > 0 && s.statuses.length > 0;

/** The body of the options and search calls: the chosen filters (the empty ones left out) and statuses. */
export function toRequest(s: ExportSelection): ExportSearchRequest {
  const body: Record<string, unknown> = { status: [...s.statuses] };
  for (const key of EXPORT_FILTER_KEYS) if (s.filters[key].length) body[key] = [...s.filters[key]];
  return body as ExportSearchRequest;
}

/** Ticks or unticks a status; the last ticked one stays (a search needs one). */
export function toggleStatus(statuses: readonly ExportSearchStatus[], status: ExportSearchStatus, on: boolean): ExportSearchStatus[] {
  const next = on ? [...new Set([...statuses, status])] : statuses.filter((s) => s !== status);
  return next.length ? (['Published', 'Saved'] as const).filter((s) => next.includes(s)) : [...statuses];
}

/** A filter's options plus the values already chosen (so a choice never disappears from its own list). */
export function optionsWithChosen(key: ExportFilterKey, options: FilterOptions | undefined, chosen: readonly string[], label: (value: string) => string = (v) => v): FilterOption[] {
  const list = [...(options?.[key] ?? [])];
  for (const value of chosen) if (!list.some((o) => o.value === value)) list.push({ value, label: label(value) });
  return list;
}

export type ExportResult = ModuleExportResult | ClusterExportResult;
export const isModuleResult = (r: ExportResult): r is ModuleExportResult => 'moduleName' in r;

/** A result's key: name (or cluster id) and month. */
export const resultKey = (r: ExportResult) => (isModuleResult(r) ? moduleKeyString(r) : clusterKeyString(r));
export const resultLabel = (r: ExportResult) => (isModuleResult(r) ? r.moduleLabel : r.clusterLabel);
export const resultName = (r: ExportResult) => (isModuleResult(r) ? r.moduleName : r.clusterId);

/** What a search produced, as the export calls need it. */
export interface SearchedExport {
  kind: ExportKind;
  statuses: ExportSearchStatus[];
  /** The stars customers chosen: an export keeps only their stores (body field `customers`). */
  customers: string[];
}

/**
 * The export body of the chosen results (part 2 §7: name or id, monthId, zones, customers, legoMonth):
 * `customers` are the search's stars customers, `legoMonth` the badge the result showed.
 */
export function exportTarget(searched: SearchedExport, results: readonly ExportResult[]): { type: 'module'; items: ModuleExportItem[] } | { type: 'cluster'; items: ClusterExportItem[] } {
  const extra = (r: ExportResult) => ({ monthId: r.monthId, legoMonth: r.legoMonth, ...(searched.customers.length ? { customers: [...searched.customers] } : {}) });
  if (searched.kind === 'module') return { type: 'module', items: results.filter(isModuleResult).map((r) => ({ moduleName: r.moduleName, ...extra(r) })) };
  return { type: 'cluster', items: results.filter((r): r is ClusterExportResult => !isModuleResult(r)).map((r) => ({ clusterName: r.clusterId, ...extra(r) })) };
}

/** The `status` query of the export call for the search's statuses. */
export const exportStatusOf = (searched: SearchedExport) => exportStatusFor(searched.statuses);
