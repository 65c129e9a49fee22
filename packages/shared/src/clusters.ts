import { z } from 'zod';
import { itemVersion, productDtoSchema, publishBlockReasonSchema } from './modules.js';
import { int4Id } from './numbers.js';
import { monthIdSchema } from './reference-data.js';
import { clusterCompositionStatusSchema, itemStatusSchema } from './statuses.js';
import { LIMITS, MESSAGES } from './validation.js';

/** Spec texts of the cluster lifecycle (part 2 §5 and §8), copied once. */
export const CLUSTER_TEXTS = {
  clusterNotLocked: "Sorry! The cluster was unlocked by another user, you can't save or publish.",
  modulesInWip:
    'It is not possible to publish the cluster, because there are modules in work in progress. Please publish all modules WIP before publishing the entire cluster.',
  notWip: 'Only clusters in WIP can be published.',
  atLeastOneLia: MESSAGES.atLeastOneLia,
  submitInProgress: 'The cluster is being submitted to the planning system: it cannot be changed until the submission ends.',
  monthClosed: 'The month of the cluster is closed: the cluster cannot be changed.',
  releaseClosed: 'The release of the cluster is closed: the cluster cannot be changed.',
  /** Browser texts built from the save answer (part 2 §8). */
  moduleNotAllowed: (ids: readonly string[]) => `Error in cluster ${ids.join(', ')}: cannot add selected module`,
  cannotEdit: (labels: readonly string[]) => `Cannot edit cluster(s) ${labels.join(', ')}`,
  /** Reasons a copy to one destination month fails (the month is given by the error entry). */
  copyMonthClosed: 'The month is closed',
  copyMonthUnknown: 'The month does not exist',
  copyReleaseClosed: 'The release of the month is closed',
  copyLocked: (owner: string) => `The cluster is locked by ${owner}`,
  copySubmitInProgress: 'The submission of the cluster is in progress',
  copyBeingDeleted: 'The cluster is being deleted in that month',
  copyNotAllowed: 'You are not allowed to change the cluster in that month',
  copySourceGone: 'The cluster does not exist any more',
  copyModulesMissing: (names: readonly string[]) => `Modules not available in the month, not copied: ${names.join(', ')}`,
  copyPublishNotAllowed: 'Copied, but you are not allowed to publish the cluster',
} as const;

/** Error keys the save answer puts in `errorsMap[clusterId]`. */
export const CLUSTER_SAVE_ERRORS = { moduleNotAllowedInCluster: 'moduleNotAllowedInCluster' } as const;

const clusterIdSchema = z.string().min(1).max(LIMITS.clusterId);
const moduleNameSchema = z.string().min(1).max(LIMITS.moduleName);

// ───────────── answers ─────────────

export const clusterStoreSchema = z.object({
  storeJda: z.string(),
  codiceStoreSap: z.string(),
  name: z.string(),
  starsCustomer: z.string(),
  customerSegmentation: z.string(),
});

export const clusterLiaSchema = z.object({ liaCode: z.string(), planningChannelId: z.string(), isChecked: z.boolean() });

export const clusterClassificationSchema = z.object({ classificationId: z.number().int(), classificationLabel: z.string() });

/** A module as a cluster holds it (part 2 §3 Cluster module); `status` is the module's own status. */
export const clusterModuleDtoSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  macroFamily: z.string(),
  brand: z.string(),
  monthId: z.string(),
  clusterId: z.string(),
  clusterCompositionStatus: clusterCompositionStatusSchema,
  status: itemStatusSchema,
  /** The module's active (not REMOVED) must-have SKUs: MH, as in the home search's `length`. */
  length: z.number().int(),
  /** The module's active eligible SKUs: EL. The module's SKU count is `length + elLength`. */
  elLength: z.number().int(),
  /** Left empty in cluster answers: the composition editor loads SKUs per module. */
  productDtoList: z.array(productDtoSchema),
});
export type ClusterModuleDto = z.infer<typeof clusterModuleDtoSchema>;

/** A cluster (part 2 §3 Cluster), as the server answers it. */
export const clusterDtoSchema = z.object({
  clusterId: z.string(),
  clusterLabel: z.string(),
  clusterDescription: z.string(),
  monthId: z.string(),
  brandCode: z.string(),
  collection: z.string(),
  country: z.array(z.string()),
  status: itemStatusSchema,
  locked: z.boolean(),
  userLock: z.string().nullable(),
  legoMonth: z.boolean(),
  stores: z.array(clusterStoreSchema),
  lias: z.array(clusterLiaSchema),
  classifications: z.array(clusterClassificationSchema),
  modules: z.array(clusterModuleDtoSchema),
  rangeFacing: z.string().nullable(),
  starZones: z.array(z.string()),
  publicationDate: z.string().nullable(),
  rpasErrors: z.string().nullable(),
  /** Open months in which the cluster exists. */
  months: z.array(z.string()),
  /** Store count. */
  door: z.number().int(),
  /** Distinct active SKUs over the ADDED modules. */
  totalSku: z.number().int(),
  releaseClosed: z.boolean(),
  inOpenMonth: z.boolean(),
  /** Bumped by every write: the editor sends it back with its save and publish (docs/LIFECYCLE.md "Version conflicts"). */
  version: z.number().int(),
});
export type ClusterDto = z.infer<typeof clusterDtoSchema>;

// ───────────── requests ─────────────

export const clusterKeySchema = z.object({ clusterId: clusterIdSchema, monthId: monthIdSchema });
export type ClusterKey = z.infer<typeof clusterKeySchema>;

/** Lock, unlock and details bodies: lists of keys (at most a few hundred, the editor opens 30). */
export const clusterKeyListSchema = z.array(clusterKeySchema).max(500);

export const clusterLockStateSchema = z.object({
  clusterId: z.string(),
  monthId: z.string(),
  locked: z.boolean(),
  userLock: z.string().nullable(),
  /** false: read-only for the caller (another user holds it, or no edit right there). */
  acquired: z.boolean(),
});
export const clusterLockAnswerSchema = z.array(clusterLockStateSchema);
export const clusterUnlockAnswerSchema = z.array(clusterLockStateSchema.omit({ acquired: true }));

export const unlockQuerySchema = z.object({
  forced: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const onlyDescriptionQuerySchema = z.object({
  onlyDescription: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

/** A cluster in a save / publish / check request: the browser sends the cluster back; extra fields are ignored. */
export const clusterSaveSchema = z.object({
  clusterId: clusterIdSchema,
  monthId: monthIdSchema,
  clusterDescription: z.string().max(LIMITS.description).nullable().optional(),
  modules: z
    .array(z.object({ moduleName: moduleNameSchema, clusterCompositionStatus: clusterCompositionStatusSchema }))
    .max(2000)
    .optional(),
  lias: z
    .array(z.object({ liaCode: z.string().min(1).max(50), isChecked: z.boolean() }))
    .max(500)
    .optional(),
  classifications: z
    .array(z.object({ classificationId: int4Id() }))
    .max(500)
    .optional(),
  /** The version the editor loaded: when given and no longer the cluster's, save and publish are refused (409 versionConflict). */
  version: itemVersion.optional(),
});
export type ClusterSave = z.infer<typeof clusterSaveSchema>;

export const clusterSaveListSchema = z.array(clusterSaveSchema).min(1).max(100);

export const clusterSaveAnswerSchema = z.object({
  /** clusterId → error keys (e.g. moduleNotAllowedInCluster); any entry means nothing was saved. */
  errorsMap: z.record(z.string(), z.array(z.string())),
  /** Labels of the clusters the caller may not edit; any entry means nothing was saved. */
  unauthorizedList: z.array(z.string()),
  clusterDtoList: z.array(clusterDtoSchema),
});
export type ClusterSaveAnswer = z.infer<typeof clusterSaveAnswerSchema>;

export const checkForPublishAnswerSchema = z.object({
  /** clusterId → the other clusters of the same month and brand with exactly the same ADDED modules. */
  clusterDuplicatedResponseMap: z.record(z.string(), z.array(z.string())),
  /** The clusters that may not be published, each with its reasons (no store, no module, modules in WIP). */
  blocking: z.array(z.object({ clusterId: z.string(), monthId: z.string(), clusterLabel: z.string(), reasons: z.array(publishBlockReasonSchema) })),
});
export type CheckForPublishAnswer = z.infer<typeof checkForPublishAnswerSchema>;

export const publishAnswerSchema = z.object({ message: z.string(), jobId: z.number().int() });

export const clusterCopyRequestSchema = z.object({
  clusters: z
    .array(
      z.object({
        clusterId: clusterIdSchema,
        monthId: monthIdSchema,
        destinationMonthList: z.array(monthIdSchema).min(1).max(60),
      }),
    )
    .min(1)
    .max(200),
  toPublish: z.boolean().default(false),
});
export type ClusterCopyRequest = z.infer<typeof clusterCopyRequestSchema>;

export const clusterCopyErrorSchema = z.object({ clusterId: z.string(), months: z.array(z.string()), message: z.string() });
export type ClusterCopyError = z.infer<typeof clusterCopyErrorSchema>;

export const clusterCopyAnswerSchema = z.object({
  errors: z.array(clusterCopyErrorSchema),
  jobId: z.number().int(),
  /** false when the job was still running after the wait: poll GET /api/jobs/:id for the outcome. */
  completed: z.boolean(),
});
export type ClusterCopyAnswer = z.infer<typeof clusterCopyAnswerSchema>;

export const clusterMonthsParamsSchema = z.object({ clusterId: clusterIdSchema });
export const clusterMonthsQuerySchema = z.object({
  monthId: monthIdSchema.optional(),
  purpose: z.enum(['copy', 'delete']).default('copy'),
});
export const clusterMonthsAnswerSchema = z.array(z.string());
