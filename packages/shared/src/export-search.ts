/**
 * The Export Data page's calls (part 2 §2 "Export Data page", §3 "Export filters", §5, §8, §9):
 * the filter options (`POST /api/module/exportFilters`, `POST /api/cluster/exportFilters`) and the
 * export search (`POST /api/module/exportSearch`, `POST /api/cluster/exportSearch`). docs/exports.md
 * "Export Data page" says what every filter means for each kind of item.
 */
import { z } from 'zod';
import { ERROR_TEXTS } from './errors.js';
import { monthIdSchema } from './reference-data.js';
import { clusterListItemSchema, moduleListItemSchema, searchFiltersSchema, type FilterKey } from './search.js';

/** The export filters of part 2 §3, in the spec's order. */
export const EXPORT_FILTER_KEYS = [
  'monthId',
  'planningChannel',
  'brand',
  'collection',
  'country',
  'starsCustomer',
  'clusterId',
  'macroFamily',
  'newModule',
  'moduleLabel',
  'storeJda',
  'codiceStoreSap',
  'customerSegmentation',
  'rangeFacing',
  'clusterLabel',
  'clientClassification',
] as const satisfies readonly FilterKey[];
export type ExportFilterKey = (typeof EXPORT_FILTER_KEYS)[number];

/** Filters only modules carry: a cluster search keeps the clusters holding (ADDED) such a module. */
export const EXPORT_MODULE_KEYS = ['macroFamily', 'newModule', 'moduleLabel'] as const satisfies readonly ExportFilterKey[];
/** Filters only clusters carry: a module search keeps the modules ADDED in one such cluster of their month. */
export const EXPORT_CLUSTER_KEYS = [
  'clusterId',
  'clusterLabel',
  'rangeFacing',
  'clientClassification',
  'storeJda',
  'codiceStoreSap',
  'customerSegmentation',
] as const satisfies readonly ExportFilterKey[];

/** The sidebar's names of the filters. */
export const EXPORT_FILTER_LABELS: Record<ExportFilterKey, string> = {
  monthId: 'Month',
  planningChannel: 'Planning Channel',
  brand: 'Brand',
  collection: 'Collection',
  country: 'Country',
  starsCustomer: 'Stars Customer',
  clusterId: 'Cluster id',
  macroFamily: 'Macro Family',
  newModule: 'Type',
  moduleLabel: 'Module',
  storeJda: 'Store JDA',
  codiceStoreSap: 'SAP code',
  customerSegmentation: 'Customer Segmentation',
  rangeFacing: 'Range Facing',
  clusterLabel: 'Cluster',
  clientClassification: 'Client Classification',
};

/** The status checkboxes (part 2 §2, §9): Published (default) and Saved. */
export const EXPORT_SEARCH_STATUSES = ['Published', 'Saved'] as const;
export type ExportSearchStatus = (typeof EXPORT_SEARCH_STATUSES)[number];
const statusList = z.array(z.enum(EXPORT_SEARCH_STATUSES)).min(1).max(2);

/** The item statuses each checkbox lists: Published = SUBMITTED; Saved = saved but not (yet) published. */
export const STATUSES_OF: Record<ExportSearchStatus, readonly string[]> = {
  Published: ['SUBMITTED'],
  Saved: ['WIP', 'SUBMIT_IN_PROGRESS'],
};

/**
 * The `status` query of the export call for what the checkboxes list: Published exports only SUBMITTED
 * items, so as soon as Saved is ticked the saved version is exported (for a SUBMITTED item it is the
 * published one: the product keeps no other copy).
 */
export const exportStatusFor = (statuses: readonly ExportSearchStatus[]): ExportSearchStatus => (statuses.includes('Saved') ? 'Saved' : 'Published');

const filterFields = searchFiltersSchema.omit({ starsZone: true });

/** `POST /api/{module|cluster}/exportFilters` body: the filters chosen so far and the ticked statuses. */
export const exportFiltersRequestSchema = filterFields.extend({ status: statusList.default(['Published']) });
export type ExportFiltersRequest = z.input<typeof exportFiltersRequestSchema>;

/** `POST /api/{module|cluster}/exportSearch` body: as the options' body, with at least one month (part 2 §5). */
export const exportSearchRequestSchema = exportFiltersRequestSchema.extend({
  monthId: z.array(monthIdSchema).min(1, 'Choose a month').max(24),
});
export type ExportSearchRequest = z.input<typeof exportSearchRequestSchema>;

/** A module of the export results. */
export const moduleExportResultSchema = moduleListItemSchema.pick({
  moduleName: true,
  moduleLabel: true,
  monthId: true,
  macroFamily: true,
  brand: true,
  collection: true,
  planningChannel: true,
  starZones: true,
  status: true,
  newModule: true,
  legoMonth: true,
  length: true,
  elLength: true,
});
export type ModuleExportResult = z.infer<typeof moduleExportResultSchema>;

/** A cluster of the export results. */
export const clusterExportResultSchema = clusterListItemSchema.pick({
  clusterId: true,
  clusterLabel: true,
  monthId: true,
  brandCode: true,
  collection: true,
  planningChannel: true,
  country: true,
  starZones: true,
  status: true,
  legoMonth: true,
  rangeFacing: true,
  door: true,
});
export type ClusterExportResult = z.infer<typeof clusterExportResultSchema>;

/** Spec texts (part 2 §8) of the export search. */
export const EXPORT_SEARCH_TEXTS = {
  tooManyResults: ERROR_TEXTS.tooManyResults,
  changeFilters: ERROR_TEXTS.changeFilters,
  noResults: "There aren't search results.",
  noRight: "You don't have the right to export.",
  chooseMonth: 'Choose a month to search.',
} as const;
