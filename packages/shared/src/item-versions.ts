/**
 * Item versions (issue 18; docs/versions.md): the history of every module and cluster per month, a version's
 * content, reverting through the normal save (`?revertOf=n`) and the "what changes" diff before a publish.
 */
import { z } from 'zod';
import { compositionStatusSchema } from './statuses.js';
import { clusterKeySchema } from './clusters.js';
import { moduleKeySchema } from './modules.js';
import { LIMITS } from './validation.js';

/**
 * What wrote a version. 'release' = the four-file loader; 'classificationDelete' = the deletion of a client
 * classification the cluster carried; 'change' = any other write.
 */
export const VERSION_ACTIONS = ['create', 'save', 'publish', 'copy', 'massiveEdit', 'import', 'revert', 'release', 'restore', 'classificationDelete', 'change'] as const;
const versionActionSchema = z.enum(VERSION_ACTIONS);
export type VersionAction = (typeof VERSION_ACTIONS)[number];

/** The History panel's label of each action. */
export const ACTION_LABELS: Record<VersionAction, string> = {
  create: 'Created',
  save: 'Saved',
  publish: 'Published',
  copy: 'Copied',
  massiveEdit: 'Massive edit',
  import: 'Imported',
  revert: 'Restored version',
  release: 'Release files',
  restore: 'Restored from deletion',
  classificationDelete: 'Client classification deleted',
  change: 'Changed',
};

/** Versions per page of the history list. */
export const HISTORY_PAGE_SIZE = 20;

/** A version's composition: the active lines only (not the bin). */
const moduleVersionContentSchema = z.object({
  moduleDescription: z.string().nullable(),
  lines: z.array(z.object({ upc: z.string(), mustHave: z.boolean(), minValue: z.number().nullable() })),
});
export type ModuleVersionContent = z.infer<typeof moduleVersionContentSchema>;

/** A version of a cluster: its stores (storeJda), its ADDED modules (moduleName), LIAs and classifications. */
const clusterVersionContentSchema = z.object({
  clusterDescription: z.string().nullable(),
  stores: z.array(z.string()),
  modules: z.array(z.string()),
  lias: z.array(z.string()),
  classifications: z.array(z.number()),
});
export type ClusterVersionContent = z.infer<typeof clusterVersionContentSchema>;

const versionEntrySchema = z.object({
  /** 1..n per item-month, 1 = the oldest. */
  version: z.number().int(),
  action: versionActionSchema,
  /** Username of who wrote it. */
  user: z.string(),
  /** ISO timestamp (the UI shows it in the Italian format). */
  at: z.string(),
  /** One line against the previous version, e.g. "+3 SKUs, −1, 2 MH→EL" or "first version". */
  summary: z.string(),
  /** For a 'revert': the version restored. */
  revertOf: z.number().int().nullable(),
});
export type VersionEntry = z.infer<typeof versionEntrySchema>;

/** One page of versions, newest first. */
export const historyPageSchema = z.object({
  content: z.array(versionEntrySchema),
  number: z.number().int(),
  size: z.number().int(),
  totalElements: z.number().int(),
  totalPages: z.number().int(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const moduleVersionDetailSchema = z.object({
  entry: versionEntrySchema,
  content: moduleVersionContentSchema,
  /** SKUs of the version that no longer exist / are now discontinued: flagged, never silently restored. */
  flags: z.object({ missing: z.array(z.string()), discontinued: z.array(z.string()) }),
});
export type ModuleVersionDetail = z.infer<typeof moduleVersionDetailSchema>;

export const clusterVersionDetailSchema = z.object({
  entry: versionEntrySchema,
  content: clusterVersionContentSchema,
  /** Stores / modules of the version that no longer exist in that month. */
  flags: z.object({ missingStores: z.array(z.string()), missingModules: z.array(z.string()) }),
});
export type ClusterVersionDetail = z.infer<typeof clusterVersionDetailSchema>;

const moduleDiffSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  mhToEl: z.array(z.string()),
  elToMh: z.array(z.string()),
  minChanged: z.array(z.object({ upc: z.string(), from: z.number().nullable(), to: z.number().nullable() })),
});
export type ModuleDiff = z.infer<typeof moduleDiffSchema>;

const clusterDiffSchema = z.object({
  storesAdded: z.array(z.string()),
  storesRemoved: z.array(z.string()),
  modulesAdded: z.array(z.string()),
  modulesRemoved: z.array(z.string()),
  /** Groups of stores by how many distinct active SKUs they gain / lose through the cluster's modules. */
  skusPerStore: z.array(z.object({ gained: z.number().int(), lost: z.number().int(), stores: z.number().int() })),
});
export type ClusterDiff = z.infer<typeof clusterDiffSchema>;

const lastPublished = <T extends z.ZodType>(diff: T) =>
  z.object({ version: z.number().int().nullable(), at: z.string().nullable(), diff }).nullable();
const previousMonth = <T extends z.ZodType>(diff: T) => z.object({ monthId: z.string(), diff }).nullable();

/** null lastPublished = never published; null previousMonth = no published previous month. */
export const modulePublishDiffSchema = z.object({
  moduleName: z.string(),
  monthId: z.string(),
  lastPublished: lastPublished(moduleDiffSchema),
  previousMonth: previousMonth(moduleDiffSchema),
});
export type ModulePublishDiff = z.infer<typeof modulePublishDiffSchema>;

export const clusterPublishDiffSchema = z.object({
  clusterId: z.string(),
  monthId: z.string(),
  lastPublished: lastPublished(clusterDiffSchema),
  previousMonth: previousMonth(clusterDiffSchema),
});
export type ClusterPublishDiff = z.infer<typeof clusterPublishDiffSchema>;

const page = z.coerce.number().int().min(0).max(1_000_000).default(0);

/** Query of GET /api/module/history. */
export const moduleHistoryQuerySchema = moduleKeySchema.extend({ page });
/** Query of GET /api/cluster/history. */
export const clusterHistoryQuerySchema = clusterKeySchema.extend({ page });
/** Path of GET …/history/version/:n. */
export const versionParamsSchema = z.object({ n: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Query of a save that restores a version: POST /api/{module|cluster}/save?revertOf=n. */
export const revertOfQuerySchema = z.object({ revertOf: z.coerce.number().int().min(1).max(2_147_483_647).optional() });

/** A line of the editor's unsaved composition in a publishDiff request. */
const diffLineSchema = z.object({
  upc: z.string().min(1).max(20),
  mustHave: z.boolean(),
  /** A number, or a numeric string as the editor may hold it. */
  minValue: z
    .union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/, 'minValue must be numeric').transform(Number)])
    .pipe(z.number().min(0).max(99_999_999.9))
    .nullish(),
  moduleCompositionStatus: compositionStatusSchema.optional(),
});

export const PUBLISH_DIFF_MAX_ITEMS = 200;

export const modulePublishDiffRequestSchema = z
  .array(
    z.object({
      moduleName: z.string().min(1).max(LIMITS.moduleName),
      monthId: moduleKeySchema.shape.monthId,
      productDtoList: z.array(diffLineSchema).max(5000).optional(),
    }),
  )
  .max(PUBLISH_DIFF_MAX_ITEMS);
export type ModulePublishDiffRequest = z.infer<typeof modulePublishDiffRequestSchema>;

export const clusterPublishDiffRequestSchema = z.array(clusterKeySchema).max(PUBLISH_DIFF_MAX_ITEMS);
export type ClusterPublishDiffRequest = z.infer<typeof clusterPublishDiffRequestSchema>;

export const VERSION_TEXTS = {
  firstVersion: 'first version',
  noChange: 'no change',
  unknownVersion: 'Version not found',
  neverPublished: 'Never published before',
  noPreviousMonth: 'No published version in a previous month',
} as const;
