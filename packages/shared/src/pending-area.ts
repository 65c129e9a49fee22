/**
 * The Pending Area (part 2 §2 "Pending Area", §3 "Pending area", §5, §6, §8; docs/pending-area.md):
 * its filter options, its paged lists of modules and clusters, and its texts.
 */
import { z } from 'zod';
import { AREA_TEXTS } from './area-texts.js';
import { ERROR_TEXTS } from './errors.js';

/** The page's two views (the sidebar switch). */
const PENDING_VIEWS = ['module', 'cluster'] as const;
export type PendingView = (typeof PENDING_VIEWS)[number];

/** The statuses a pending item can have (see PENDING_SUBMIT_STUCK_MINUTES for SUBMIT_IN_PROGRESS). */
const PENDING_STATUSES = ['WIP', 'SUBMIT_IN_PROGRESS'] as const;
const pendingStatusSchema = z.enum(PENDING_STATUSES);

/**
 * A publication still SUBMIT_IN_PROGRESS this long after it was sent is stuck: the planning system
 * normally answers within seconds, so the item needs someone's attention.
 */
export const PENDING_SUBMIT_STUCK_MINUTES = 30;

/** Rows per page of the lists (the answer's `maxResultsForPage`). */
export const PENDING_PAGE_SIZE = 50;

const values = z.array(z.string().min(1).max(100)).max(500);

/** Body of the pending lists: the four filters (each a union of values) and the zero-based page. */
export const pendingAreaRequestSchema = z.strictObject({
  status: z.array(pendingStatusSchema).max(PENDING_STATUSES.length).optional(),
  brandCode: values.optional(),
  commodity: values.optional(),
  months: values.optional(),
  pageIndex: z.number().int().min(0).max(1_000_000).default(0),
});
export type PendingAreaRequest = z.input<typeof pendingAreaRequestSchema>;
export type PendingAreaFilters = Omit<z.output<typeof pendingAreaRequestSchema>, 'pageIndex'>;
export type PendingFilterKey = keyof PendingAreaFilters;
export const PENDING_FILTER_KEYS = ['status', 'brandCode', 'commodity', 'months'] as const satisfies readonly PendingFilterKey[];

/** True when at least one filter has a value (part 2 §5: the search needs one). */
export const hasPendingFilter = (f: Partial<PendingAreaFilters>) => PENDING_FILTER_KEYS.some((k) => (f[k]?.length ?? 0) > 0);

/** Body of POST /api/cluster/pendingAreaInitialFilters (the view; clusters by default). */
export const pendingFiltersRequestSchema = z.strictObject({ viewType: z.enum(PENDING_VIEWS).default('cluster') });

const optionSchema = z.object({ value: z.string(), label: z.string() });
/** The options of the four filters, among the caller's pending items of the view. */
export const pendingFilterOptionsSchema = z.object({
  status: z.array(optionSchema),
  brandCode: z.array(optionSchema),
  commodity: z.array(optionSchema),
  months: z.array(optionSchema),
});
export type PendingFilterOptions = z.infer<typeof pendingFilterOptionsSchema>;

const rowBase = {
  brandCode: z.string(),
  commodity: z.string(),
  status: pendingStatusSchema,
  monthId: z.string(),
  legoMonth: z.boolean(),
  locked: z.boolean(),
  userLock: z.string().nullable(),
  /** The planning system's warnings (semicolon-separated), when it sent the item back. */
  rpasErrors: z.string().nullable(),
};
const modulePendingRowSchema = z.object({ ...rowBase, moduleName: z.string(), moduleLabel: z.string() });
const clusterPendingRowSchema = z.object({ ...rowBase, clusterId: z.string(), clusterLabel: z.string() });

const pageBase = { count: z.number().int(), maxResultsForPage: z.number().int() };
export const modulePendingPageSchema = z.object({ ...pageBase, modulePendingAreaDtoList: z.array(modulePendingRowSchema) });
export const clusterPendingPageSchema = z.object({ ...pageBase, clusterPendingAreaDtoList: z.array(clusterPendingRowSchema) });
export type ModulePendingPage = z.infer<typeof modulePendingPageSchema>;
export type ClusterPendingPage = z.infer<typeof clusterPendingPageSchema>;

export const PENDING_TEXTS = {
  selectFilter: 'Please select at least one filter.',
  tooMany: ERROR_TEXTS.tooManyResults,
  tooManyHint: ERROR_TEXTS.changeFilters,
  empty: AREA_TEXTS.empty,
  noRight: 'You do not have access to the Pending Area: it needs an edit permission.',
  noAccessTitle: 'No access to the Pending Area',
} as const;
