/**
 * The module calls of part 1 §7 that the working area and home lean on (docs/module-calls.md):
 * refresh percentage, pending information, the filtered and pty detail views of the page's modules,
 * the Active SKUs filter options (`anagraFilters`, `ibicFilters`) and the cluster option lists of a
 * release. The spec names the calls and little else; the shapes are designed from the screens.
 */
import { z } from 'zod';
import { moduleKeySchema } from './modules.js';
import { releaseIdSchema } from './releases.js';
import { filterOptionSchema } from './search.js';
import { compositionStatusSchema } from './statuses.js';
import { performanceFiltersSchema } from './working-area.js';

const code = z.string().trim().min(1).max(100);
const codes = z.array(code).max(200);
const keys = z.array(moduleKeySchema).min(1).max(200);

/** Refresh above this share (whole percent) is flagged red (part 1 §9, part 2 §9). */
export const REFRESH_RED_ABOVE = 30;
/** Whether a refresh percentage is shown red. */
export const refreshIsRed = (percentage: number | null | undefined) => (percentage ?? 0) > REFRESH_RED_ABOVE;

// ───────────── POST /api/module/percentage ─────────────

/**
 * The refresh of an assortment: the share (whole percent) of its SKUs that the previous version did not
 * carry; 0 for an empty assortment. /api/cluster/clusterPercentage computes the same for a cluster.
 */
export function refreshPercentage(current: ReadonlySet<string>, before: ReadonlySet<string>): number {
  if (current.size === 0) return 0;
  const fresh = [...current].filter((u) => !before.has(u)).length;
  return Math.round((100 * fresh) / current.size);
}

/** The modules, each with the page's (maybe unsaved) composition; without one the saved composition counts. */
export const modulePercentageRequestSchema = z
  .array(
    moduleKeySchema.extend({
      productDtoList: z
        .array(z.object({ upc: z.string().min(1).max(20), mustHave: z.boolean(), moduleCompositionStatus: compositionStatusSchema }))
        .max(5000)
        .optional(),
    }),
  )
  .min(1)
  .max(200);
export type ModulePercentageRequest = z.infer<typeof modulePercentageRequestSchema>;

const modulePercentageSchema = z.object({
  moduleName: z.string(),
  monthId: z.string(),
  /**
   * Share (0–100, whole) of the module's active SKUs that its previous version (the latest earlier
   * month holding the module) did not carry; null without an earlier version. The definition of
   * /api/cluster/clusterPercentage, applied to one module.
   */
  percentageRefresh: z.number().int().nullable(),
  previousMonthId: z.string().nullable(),
  /** Distinct active (not removed) SKUs. */
  totalSku: z.number().int(),
  /** Distinct active Must Have SKUs. */
  totalMh: z.number().int(),
});
export type ModulePercentage = z.infer<typeof modulePercentageSchema>;
export const modulePercentageAnswerSchema = z.object({ moduleDtoList: z.array(modulePercentageSchema) });

// ───────────── POST /api/module/pendingModuleInfo ─────────────

export const pendingModuleInfoRequestSchema = z.object({ moduleDtoList: keys });

/**
 * Why a module is pending (the cases of the Pending Area's definition): WIP, WIP sent back with the
 * planning system's warnings, or a submission stuck in SUBMIT_IN_PROGRESS.
 */
const PENDING_REASONS = ['WIP', 'PLANNING_SYSTEM_WARNINGS', 'SUBMIT_STUCK'] as const;
const pendingModuleInfoSchema = z.object({
  moduleName: z.string(),
  monthId: z.string(),
  status: z.string(),
  /** Listed in the caller's Pending Area (the same definition, `pendingWhere`). */
  pending: z.boolean(),
  reason: z.enum(PENDING_REASONS).nullable(),
  /** The planning system's warnings, one per entry (the stored text is ';'-separated). */
  rpasErrors: z.array(z.string()),
});
export type PendingModuleInfo = z.infer<typeof pendingModuleInfoSchema>;
export const pendingModuleInfoAnswerSchema = z.array(pendingModuleInfoSchema);

// ───────────── POST /api/module/filteredDetails, /filteredDetailsPty ─────────────

/** The page's modules and the performance filters: which SKUs sold in the filters' places and window. */
export const filteredDetailsRequestSchema = z.object({ moduleDtoList: keys, ibicFilters: performanceFiltersSchema.optional() });
/** The page's modules: their SKUs by pty (the month's pieces figure), largest first. */
export const filteredDetailsPtyRequestSchema = z.object({ moduleDtoList: keys });

/** Like the newness views: per module, the SKUs the view keeps (the page dims the others). */
export const filteredDetailsAnswerSchema = z.array(z.object({ moduleName: z.string(), monthId: z.string(), upcList: z.array(z.string()) }));
export const filteredDetailsPtyAnswerSchema = z.array(
  z.object({
    moduleName: z.string(),
    monthId: z.string(),
    /** The module's pty: the sum over its active SKUs (the module DTO's `pty`). */
    pty: z.number(),
    /** Active SKUs with a pty above 0 in the module's month, largest first (then by upc). */
    upcList: z.array(z.string()),
    skuList: z.array(z.object({ upc: z.string(), pty: z.number() })),
  }),
);

// ───────────── POST /api/product/filters ─────────────

/** Optional narrowing: the registry options among the SKUs of these brands and collections. */
export const productFiltersRequestSchema = z.object({ brand: codes.optional(), collection: codes.optional() });

const options = z.array(filterOptionSchema);
export const productFiltersAnswerSchema = z.object({
  /** Product registry ("anagrafica") filters of the Active SKUs search. */
  anagraFilters: z.object({ brand: options, collection: options, planningChannel: options }),
  /** Performance filters (`PerformanceFilters`), with the values the data holds. */
  ibicFilters: z.object({
    monthsRolling: z.array(z.number().int()),
    zonaPerMysa: options,
    countryName: options,
    starsCustomer: options,
    customerCode: options,
    distrChannelActual: options,
    legoClassDes: options,
  }),
});
export type ProductFilters = z.infer<typeof productFiltersAnswerSchema>;
/** The months-rolling choices of the performance filters (the default is 6). */
export const MONTHS_ROLLING_OPTIONS = [1, 3, 6, 9, 12] as const;

// ───────────── POST /api/cluster/brand, /api/cluster/planningChannel ─────────────

export const clusterBrandOptionsRequestSchema = z.object({ releaseId: releaseIdSchema });
export const clusterChannelOptionsRequestSchema = z.object({ releaseId: releaseIdSchema, brand: codes.optional() });
export const clusterOptionsAnswerSchema = options;
