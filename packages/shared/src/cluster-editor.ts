/**
 * Payloads of the cluster composition editor's own calls (part 2 §2 "Cluster composition editor", §7):
 * range facing, refresh percentage, module search, the discontinued table, classification options and
 * a module's composition preview.
 */
import { z } from 'zod';
import { clusterKeySchema } from './clusters.js';
import { monthIdSchema } from './reference-data.js';
import { clusterCompositionStatusSchema, itemStatusSchema } from './statuses.js';
import { LIMITS } from './validation.js';

/** Spec texts of the editor (part 2 §4, §5, §8), copied once. */
export const CLUSTER_EDITOR_TEXTS = {
  editCluster: 'Edit cluster',
  /** The title for a user who may edit none of the open clusters (a viewer). */
  viewCluster: 'View cluster',
  youSearched: (month: string) => `You searched: ${month}`,
  descriptionPlaceholder: 'Cluster Description',
  confirmDescription: 'Are you sure you want also to change the cluster description?',
  saving: 'Saving...',
  publishing: 'Publishing...',
  saved: 'Cluster correctly saved',
  submissionStarted: 'The submission process has been started',
  contactAdministrator: 'Error: please contact the administrator',
  moduleInWipTitle: 'Attention! Module in WIP',
  moduleAlreadyPresent: 'The module is already present',
  filterToStart: 'Filter to start searching',
  /** Spec text, typo included. */
  noSearchResults: "You search did't return any results",
  leaving: 'You are leaving the page without saving. Are you sure you want to continue?',
  switchTitle: 'Do you want to change the cluster?',
  switchBody: 'All unsaved changes will be lost.',
  publishAnyway: 'Publish the clusters anyway',
  doNotPublish: 'Do not publish',
  addToAll: 'Add to all clusters',
  lockedBy: (user: string) => `${user} is editing the cluster`,
  copied: (name: string, months: readonly string[]) => `Copied module/cluster ${name} for the months: ${months.join(', ')}`,
  unableToCopy: (name: string, months: readonly string[]) => `Unable to copy the module/cluster ${name} for the months: ${months.join(', ')}`,
  noAvailableMonths: 'There are no available months',
  /** The module search needs a country, a family or more than 4 characters of text (part 2 §5). */
  searchTooVague: 'Choose a country or a family, or type more than 4 characters of the module label',
} as const;

/** Refresh above this percentage is flagged red (part 2 §9). */
export const REFRESH_RED_ABOVE = 30;
/** At most this many clusters are open in the editor at once (part 2 §9). */
export const MAX_OPEN_CLUSTERS = 30;
/** The module panel searches text only when it is longer than this (part 1 §5). */
const MIN_SEARCH_TEXT = 4;

const list = (max = 200) => z.array(z.string().min(1).max(100)).max(max).default([]);

// ───────────── POST /api/cluster/rangeFacingDto ─────────────

export const rangeFacingRequestSchema = z.array(clusterKeySchema).min(1).max(500);
export const rangeFacingAnswerSchema = z.array(z.object({ clusterId: z.string(), monthId: z.string(), rangeFacing: z.string().nullable() }));
export type RangeFacing = z.infer<typeof rangeFacingAnswerSchema>[number];

/** 'min-max' → numbers; null when the text is not of that shape. */
export function parseRangeFacing(text: string | null | undefined): { min: number; max: number } | null {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text ?? '');
  return m ? { min: Number(m[1]), max: Number(m[2]) } : null;
}

// ───────────── POST /api/cluster/clusterPercentage ─────────────

export const clusterPercentageRequestSchema = z
  .array(
    z.object({
      clusterId: z.string().min(1).max(LIMITS.clusterId),
      monthId: monthIdSchema,
      modules: z
        .array(z.object({ moduleName: z.string().min(1).max(LIMITS.moduleName), clusterCompositionStatus: clusterCompositionStatusSchema }))
        .max(2000),
    }),
  )
  .min(1)
  .max(100);
export type ClusterPercentageRequest = z.infer<typeof clusterPercentageRequestSchema>;

export const clusterPercentageAnswerSchema = z.object({
  clusterDtoList: z.array(
    z.object({
      clusterId: z.string(),
      monthId: z.string(),
      /**
       * Share (0–100, whole) of the cluster's active SKUs that its previous version (the latest earlier
       * month holding the cluster) did not have; null when there is no earlier version.
       */
      percentageRefresh: z.number().int().nullable(),
      /** The month the refresh compares with. */
      previousMonthId: z.string().nullable(),
      /** Distinct active SKUs over the ADDED modules. */
      totalSku: z.number().int(),
      /** Distinct active Must Have SKUs over the ADDED modules (min facing is flagged below it). */
      totalMh: z.number().int(),
      modules: z.array(z.object({ moduleName: z.string(), totalSku: z.number().int(), totalMh: z.number().int() })),
    }),
  ),
});
type ClusterPercentageAnswer = z.infer<typeof clusterPercentageAnswerSchema>;
export type ClusterPercentage = ClusterPercentageAnswer['clusterDtoList'][number];

// ───────────── POST /api/cluster/moduleSearch ─────────────

/** The module search payload (part 2 §3): all lists. */
export const moduleSearchRequestSchema = z.object({
  brand: list(),
  collection: list(),
  moduleLabel: z.array(z.string().max(LIMITS.moduleLabelSearch)).max(1).default([]),
  monthId: z.array(monthIdSchema).max(1).min(1),
  country: list(),
  macroFamily: list(),
});
export type ModuleSearchRequest = z.input<typeof moduleSearchRequestSchema>;

/** Search is allowed with a country, a family, or text longer than 4 characters (part 1 §5). */
export function moduleSearchAllowed(req: { country?: readonly string[]; macroFamily?: readonly string[]; moduleLabel?: readonly string[] }): boolean {
  return (req.country?.length ?? 0) > 0 || (req.macroFamily?.length ?? 0) > 0 || (req.moduleLabel?.[0]?.trim().length ?? 0) > MIN_SEARCH_TEXT;
}

const searchedModuleSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  macroFamily: z.string(),
  brand: z.string(),
  collection: z.string(),
  monthId: z.string(),
  status: itemStatusSchema,
  starZones: z.array(z.string()),
  /** Active (not REMOVED) SKUs. */
  totalSku: z.number().int(),
  /** Of those, must-have (MH) and eligible (EL), as a module's `length` / `elLength`. */
  length: z.number().int(),
  elLength: z.number().int(),
});
export type SearchedModule = z.infer<typeof searchedModuleSchema>;
export const moduleSearchAnswerSchema = z.array(searchedModuleSchema);

// ───────────── POST /api/cluster/discontinuedModules ─────────────

export const discontinuedRequestSchema = z.array(clusterKeySchema).min(1).max(500);
const discontinuedModuleSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  monthId: z.string(),
  macroFamily: z.string(),
  /** Active SKUs of the module flagged discontinued. */
  discoSkuCount: z.number().int(),
  /** Which of the asked clusters hold it (ADDED). */
  clusterIds: z.array(z.string()),
});
export type DiscontinuedModule = z.infer<typeof discontinuedModuleSchema>;
export const discontinuedAnswerSchema = z.array(discontinuedModuleSchema);

// ───────────── GET /api/cluster/classificationOptions ─────────────

const classificationOptionSchema = z.object({ classificationId: z.number().int(), classificationLabel: z.string() });
export const classificationOptionsAnswerSchema = z.array(classificationOptionSchema);

// ───────────── POST /api/cluster/moduleComposition ─────────────

export const moduleCompositionRequestSchema = z.object({ moduleName: z.string().min(1).max(LIMITS.moduleName), monthId: monthIdSchema });
export const moduleCompositionAnswerSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  monthId: z.string(),
  macroFamily: z.string(),
  status: itemStatusSchema,
  skus: z.array(
    z.object({ upc: z.string(), model: z.string(), color: z.string(), size: z.string(), mustHave: z.boolean(), flagDisco: z.boolean() }),
  ),
});
export type ModuleComposition = z.infer<typeof moduleCompositionAnswerSchema>;
