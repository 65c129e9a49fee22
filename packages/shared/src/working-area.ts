/**
 * Payloads of the working area (the module page): part 1 §2 "Module editor", part 2 §2 "Working Area"
 * and §3. Module and SKU shapes come from modules.ts; this file holds what only the module page asks.
 */
import { z } from 'zod';
import { moduleDtoSchema, moduleKeySchema, productDtoSchema } from './modules.js';
import { numeric } from './numbers.js';
import { LIMITS } from './validation.js';

const monthId = z.string().regex(/^M(0[1-9]|1[0-2])_\d{4}$/, 'Month ids look like M03_2027');
const list = z.array(z.string().max(100)).max(500);

/** Spec texts of the module page, copied once. */
export const WORKING_AREA_TEXTS = {
  noModules: 'There are no modules . Create or import a module and save your changes.',
  moduleNotFound: "We couldn't find the module you are looking for. There may have been a technical problem.",
  differentModule: 'The starting module is different from the end module.',
  skuAlreadyPresentTitle: 'Error!',
  skuAlreadyPresent: 'The sku is already present',
  confirmDescription: 'Are you sure you want also to change the module description?',
  countCaution: 'This module has a different number of SKUs with respect to the previous month. Please, proceed only if you are sure.',
  countCautionPlural: 'One or more modules have a different number of SKUs with respect to the previous month. Please, proceed only if you are sure.',
  leave: 'Are you sure you want to leave this page? All changes will be lost',
  saved: 'MODULE/MODULES CORRECTLY SAVED',
  noMonths: 'There are no available months',
  noPerformance: 'No performance data available',
  filterToSearch: 'Filter to start searching',
  noSearchResults: "You search didn't return any results",
  noRemoved: "There aren't removed sku",
  noEligibles: 'No eligibles',
  discontinued: "You can't publish the module because there is a discontinuated sku.",
} as const;

/**
 * The second line of the spec's 'Error!' / 'The sku is already present' popup on a drop of a SKU the
 * module already holds: the SKU named as its tile names it (model colour size). Nothing else happens.
 */
export const skuAlreadyInModule = (sku: string) => `${sku} is already in this module`;

/** The planning system's product name in texts ('… publish the changes on RPAS??'). */
export const PLANNING_SYSTEM_NAME = 'RPAS';
export const publishQuestion = (system = PLANNING_SYSTEM_NAME) => `Are you sure you want to publish the changes on ${system}??`;
export const copiedText = (name: string, months: readonly string[]) => `Copied module/cluster ${name} for the months: ${months.join(', ')}`;
export const copyFailedText = (name: string, months: readonly string[]) => `Unable to copy the module/cluster ${name} for the months: ${months.join(', ')}`;

/**
 * Performance ("ibic") filters, each a list as the filter keys are (contract §2).
 * sku_performance holds zone × customer segmentation per month: zonaPerMysa, countryName (through the
 * country's zone), monthsRolling, and the customer filters (through the zones and segmentations of the
 * customers' stores) narrow those facts; legoClassDes narrows the SKUs (docs/working-area.md).
 */
export const performanceFiltersSchema = z.object({
  zonaPerMysa: list.optional(),
  monthsRolling: z.array(z.coerce.number().int().min(1).max(24)).max(1).optional(),
  starsCustomer: list.optional(),
  customerCode: list.optional(),
  distrChannelActual: list.optional(),
  legoClassDes: list.optional(),
  countryName: list.optional(),
});
export type PerformanceFilters = z.infer<typeof performanceFiltersSchema>;
export const DEFAULT_MONTHS_ROLLING = 6;

/**
 * Whether the performance filters narrow by where SKUs sell (zones, countries, customers, channels):
 * the Active SKUs search then keeps the SKUs that sold there over the rolling window.
 */
export const narrowsByPlace = (f: PerformanceFilters) =>
  !!(f.zonaPerMysa?.length || f.countryName?.length || f.starsCustomer?.length || f.customerCode?.length || f.distrChannelActual?.length);

/** A module of the page: the module DTO, the one shape every module answer has (items/module/module.presenter.ts). */
export type WorkingModule = z.infer<typeof moduleDtoSchema>;

/** POST /api/module/modules: the modules to open, with the performance filters of the page. */
export const modulesRequestSchema = z.object({
  moduleDtoList: z.array(moduleKeySchema).min(1).max(200),
  ibicFilters: performanceFiltersSchema.optional(),
});
export const modulesResponseSchema = z.array(moduleDtoSchema);

/** POST /api/module/importModules: modules by key, or (macroFamily without moduleName) a family's modules of a month. */
export const importModulesRequestSchema = z
  .array(
    z
      .object({
        moduleName: z.string().min(1).max(LIMITS.moduleName).optional(),
        monthId,
        macroFamily: z.string().min(1).max(LIMITS.familyName).optional(),
        brand: z.string().max(20).optional(),
        collection: z.string().max(20).optional(),
      })
      .refine((v) => !!v.moduleName || !!v.macroFamily, { message: 'Give a module name or a macro family' }),
  )
  .min(1)
  .max(200);
export const importModulesResponseSchema = z.object({ moduleDtoList: z.array(moduleDtoSchema), notFound: z.array(z.string()) });

/** POST /api/module/modulePerformances */
export const performancesRequestSchema = z.object({
  moduleDto: moduleKeySchema.extend({ productDtoList: z.array(z.object({ upc: z.string().max(20) })).max(5000).optional() }),
  ibicFilters: performanceFiltersSchema.optional(),
});
export const performanceSegmentationSchema = z.object({ segmentation: z.string(), numDoor: z.number(), sellOut: z.number() });
export const performanceZoneSchema = z.object({
  starZone: z.string(),
  numDoor: z.number(),
  segmentationList: z.array(performanceSegmentationSchema),
});
export const performanceUpcSchema = z.object({
  upc: z.string(),
  model: z.string(),
  color: z.string(),
  size: z.string(),
  sellOut: z.number(),
  numDoor: z.number(),
  starZoneList: z.array(performanceZoneSchema),
  /** Sell-out per month of the window, oldest first (the sparkline). */
  monthly: z.array(z.object({ monthId: z.string(), sellOut: z.number() })),
});
export const performancesResponseSchema = z.object({
  upcList: z.array(performanceUpcSchema),
  months: z.array(z.string()),
  /** Messages for the planner, ';'-separated (e.g. filters the data cannot apply). */
  status: z.string().nullable(),
});
export type PerformanceUpc = z.infer<typeof performanceUpcSchema>;
export type PerformancesResponse = z.infer<typeof performancesResponseSchema>;

/** POST /api/product/filtered: the Active SKUs search (part 2 §2, §5). */
export const activeSkuSearchSchema = performanceFiltersSchema
  .extend({
    monthId: monthId.optional(),
    model: z.string().trim().max(10).optional(),
    color: z.string().trim().max(10).optional(),
    size: z.string().trim().max(10).optional(),
    upc: z.string().trim().max(20).optional(),
    collection: list.optional(),
    planningChannel: list.optional(),
    brand: list.optional(),
    /** Compared with skus.srp, numeric(12,2). */
    priceMin: numeric(12, 2, { min: 0 }).nullable().optional(),
    priceMax: numeric(12, 2, { min: 0 }).nullable().optional(),
    moduleList: list.optional(),
  })
  .refine((v) => (v.planningChannel?.length ?? 0) > 0 || ((v.brand?.length ?? 0) > 0 && (v.collection?.length ?? 0) > 0), {
    message: 'Choose a planning channel, or a brand and a collection',
    path: ['planningChannel'],
  });
export type ActiveSkuSearch = z.infer<typeof activeSkuSearchSchema>;
export const activeSkuSearchResponseSchema = z.object({ productDtoList: z.array(productDtoSchema.extend({ brand: z.string(), collection: z.string() })) });
export type ActiveSku = z.infer<typeof activeSkuSearchResponseSchema>['productDtoList'][number];

/** POST /api/module/clusterAnalysis: the page's modules with their current (maybe unsaved) compositions. */
export const clusterAnalysisRequestSchema = z.object({
  modules: z
    .array(
      moduleKeySchema.extend({
        productDtoList: z
          .array(z.object({ upc: z.string().max(20), mustHave: z.boolean(), moduleCompositionStatus: z.string().max(20) }))
          .max(5000)
          .optional(),
      }),
    )
    .min(1)
    .max(200),
});
export const clusterAnalysisItemSchema = z.object({
  clusterId: z.string(),
  clusterLabel: z.string(),
  monthId: z.string(),
  doors: z.number(),
  mh: z.number(),
  el: z.number(),
  mhandEL: z.number(),
  minFacing: z.number().nullable(),
  maxFacing: z.number().nullable(),
  refreshMH: z.number(),
  refreshEL: z.number(),
  refreshMHandEL: z.number(),
  avgPrice: z.number(),
  avgSRPPrice: z.number(),
  modules: z.array(z.string()),
});
export type ClusterAnalysisItem = z.infer<typeof clusterAnalysisItemSchema>;
export const clusterAnalysisResponseSchema = z.array(clusterAnalysisItemSchema);

/** Newness views (tabs 0–3): which SKUs of the page's modules are new. */
export const newnessLegoRequestSchema = z.object({ moduleDtoList: z.array(moduleKeySchema).min(1).max(200), flagNew: z.boolean().default(true) });
export const newnessNotLegoRequestSchema = z.object({ moduleDtoList: z.array(moduleKeySchema).min(1).max(200), currentMonthId: monthId });
export const newnessResponseSchema = z.array(z.object({ moduleName: z.string(), monthId: z.string(), upcList: z.array(z.string()) }));
export type NewnessResponse = z.infer<typeof newnessResponseSchema>;

/** POST /api/module/publishedProductModule */
export const publishedProductRequestSchema = z.object({
  monthId,
  model: z.string().max(40),
  color: z.string().max(40),
  size: z.string().max(20),
  materialCode: z.string().max(40),
  skuCode: z.string().max(60),
});
export const publishedProductResponseSchema = z.array(
  z.object({ moduleName: z.string(), moduleLabel: z.string(), monthId: z.string(), mustHave: z.boolean(), publicationDate: z.string().nullable() }),
);

/** POST /api/module/extraSellIn → a number */
export const extraSellInRequestSchema = z.object({
  moduleName: z.string().min(1).max(LIMITS.moduleName),
  monthId,
  materialCode: z.string().max(40),
  skuCode: z.string().max(60),
});
