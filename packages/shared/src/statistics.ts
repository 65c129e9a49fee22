/**
 * The Statistics page (part 2 §2 "Statistics page", §3 "Statistics", §5, §8; docs/statistics.md): its filter
 * options (the SKU attribute values of the month's clusters), the search by share ranges, and its texts.
 */
import { z } from 'zod';
import { monthIdSchema } from './reference-data.js';

/** The five SKU attributes the page filters on, in the page's order (part 2 §2). */
export const STATISTIC_FIELDS = ['marketingTheme', 'polar', 'gender', 'material', 'prizm'] as const;
const statisticFieldSchema = z.enum(STATISTIC_FIELDS);
export type StatisticField = z.infer<typeof statisticFieldSchema>;

/** The category titles the page shows above each group of sliders. */
export const STATISTIC_FIELD_LABELS: Record<StatisticField, string> = {
  marketingTheme: 'Marketing theme',
  polar: 'Polar',
  gender: 'Gender',
  material: 'Material',
  prizm: 'Prizm',
};

/** The values of the two yes/no attributes (polar, prizm), as the options and the filters carry them. */
export const STATISTIC_YES = 'YES';
export const STATISTIC_NO = 'NO';

/** A slider's ends (part 2 §5, §9: 0–100 %, default the whole range). */
export const STATISTIC_MIN = 0;
export const STATISTIC_MAX = 100;

/** Most filter entries one search may carry (one per option value; the demo world has about twenty). */
const MAX_STATISTIC_FILTERS = 200;

const values = z.array(z.string().min(1).max(100)).max(500);

/** Body of POST /api/cluster/statisticFiltersByBrand: one month, and brands and collections (empty: all the caller may view). */
export const statisticFiltersRequestSchema = z.strictObject({
  monthId: monthIdSchema,
  brand: values.default([]),
  collection: values.default([]),
});
export type StatisticFiltersRequest = z.input<typeof statisticFiltersRequestSchema>;

const optionSchema = z.object({ value: z.string(), label: z.string() });
export type StatisticOption = z.infer<typeof optionSchema>;
/** The values of each attribute among the active SKUs of the month's clusters the caller may view. */
export const statisticFilterOptionsSchema = z.object({
  marketingTheme: z.array(optionSchema),
  polar: z.array(optionSchema),
  gender: z.array(optionSchema),
  material: z.array(optionSchema),
  prizm: z.array(optionSchema),
});
export type StatisticFilterOptions = z.infer<typeof statisticFilterOptionsSchema>;

const percent = z.number().min(STATISTIC_MIN).max(STATISTIC_MAX);
/** One slider: the clusters whose share of active SKUs with `field` = `searchValue` lies in [minRange, maxRange] (inclusive). */
const statisticFilterSchema = z
  .strictObject({
    field: statisticFieldSchema,
    searchValue: z.string().min(1).max(100),
    minRange: percent,
    maxRange: percent,
  })
  .refine((f) => f.minRange <= f.maxRange, { message: 'minRange must not be above maxRange', path: ['maxRange'] });
export type StatisticFilter = z.infer<typeof statisticFilterSchema>;

/** Body of POST /api/cluster/statistic: the page's month, brands and collections, planning channels, and at least one slider. */
export const statisticSearchRequestSchema = z.strictObject({
  monthId: monthIdSchema,
  brand: values.default([]),
  collection: values.default([]),
  planningChannel: values.default([]),
  filters: z.array(statisticFilterSchema).min(1, 'Move at least one slider').max(MAX_STATISTIC_FILTERS),
});
export type StatisticSearchRequest = z.input<typeof statisticSearchRequestSchema>;

/** One cluster of the result (part 2 §3); `classId` is the cluster's collection. */
const statisticClusterSchema = z.object({
  brand: z.string(),
  clusterId: z.string(),
  monthId: z.string(),
  classId: z.string(),
  clusterLabel: z.string(),
  locked: z.boolean(),
  userLock: z.string().nullable(),
  legoMonth: z.boolean(),
});
export type StatisticCluster = z.infer<typeof statisticClusterSchema>;
export const statisticClusterListSchema = z.array(statisticClusterSchema);

export const STATISTICS_TEXTS = {
  title: 'Statistic Page',
  filteredBy: 'Search filtered by',
  resetAll: 'Reset all',
  search: 'Search',
  empty: "The aren't results for the selected filters.",
  tooMany: 'The search returned too many elements',
  tooManyHint: 'Change the filters and search again',
  noOptions: 'The clusters of this month have no SKUs to filter on.',
  missingMonth: 'Choose a month and at least one brand on the home page, then open the Statistics page from there.',
} as const;
