import { z } from 'zod';
import { copyOutcomeSchema } from './copy-results.js';
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

/**
 * The browser's texts of the cluster Publish dialog, per cluster (docs/LIFECYCLE.md "Publish per cluster"),
 * on top of the spec's 'Attention! Module in WIP' text and its LIA and duplicate popups.
 */
export const CLUSTER_PUBLISH_TEXTS = {
  readyHeading: (n: number) => `Ready to publish (${n})`,
  waitingHeading: (n: number) => `Waiting (${n})`,
  ready: 'Ready',
  waiting: 'Waiting',
  publishReady: (n: number) => `Publish the ${n} ready cluster${n === 1 ? '' : 's'}`,
  publishModules: (n: number) => `Publish the blocking modules (${n})`,
  noneReady: 'No cluster is ready yet: each one waits for what is listed under it.',
  noModuleToPublish: 'None of the blocking modules can be published by you now: the reason is under each module.',
  confirmModulesTitle: 'Publish the blocking modules',
  confirmModulesIntro: 'These modules will be sent to the planning system. When they are published, the clusters are checked again.',
  confirmModules: (n: number) => `Publish ${n} module${n === 1 ? '' : 's'}`,
  moduleWouldPass: 'Passes its checks: you may publish it',
  moduleNotYours: 'You may not publish it (no submit right on its brand and zones)',
  moduleLockedBy: (user: string) => `Locked by ${user}: it cannot be published now`,
  moduleNotWip: (status: string) => `Status ${status}`,
  opensInNewTab: '(opens in a new tab)',
  skuLine: (sku: { model: string; color: string; colorDescription: string; size: string }) => `${sku.model} / ${sku.color} ${sku.colorDescription} / ${sku.size}`,
  sapDisabled: (status: string | null) => `disabled in SAP${status ? ` (status ${status})` : ''}`,
  gedExpired: 'GED expired',
  discontinued: 'discontinued',
  /** After a publish call: the clusters that went and those that wait. */
  partlyPublished: 'Some clusters were not published',
  notPublishedLine: (name: string, reason: string) => `Not published: ${name}: ${reason}`,
  checking: 'Checking...',
} as const;

/** A SKU named in a blocker, as planners know it: model / colour / size (docs/LIFECYCLE.md "Publish per cluster"). */
export const blockingSkuSchema = z.object({
  upc: z.string(),
  model: z.string(),
  color: z.string(),
  colorDescription: z.string(),
  size: z.string(),
  sapStatus: z.string().nullable(),
  /** Shown beside the reason; they do not block by themselves (the planning system accepts them). */
  gedExpired: z.boolean(),
  discontinued: z.boolean(),
});
export type BlockingSku = z.infer<typeof blockingSkuSchema>;

/** A reason of a blocking module, with its SKU spelled out when the reason is a SKU's. */
export const blockingModuleReasonSchema = publishBlockReasonSchema.extend({ sku: blockingSkuSchema.optional() });

/** A module that keeps a cluster from being published (an ADDED module in WIP), and whether the caller can clear it. */
export const blockingModuleSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  monthId: z.string(),
  status: z.string(),
  /** The caller holds the submit right on the module (its brand and zones). */
  canPublish: z.boolean(),
  /** The module passes its own checks (WIP, an active SKU, none disabled in SAP): publishing it would go through. */
  publishable: z.boolean(),
  /** Who holds the module's lock now (null: nobody); a lock held by someone else stops 'Publish the blocking modules'. */
  userLock: z.string().nullable(),
  /** Why the module itself cannot be published (empty when publishable). */
  reasons: z.array(blockingModuleReasonSchema),
});
export type BlockingModule = z.infer<typeof blockingModuleSchema>;

export const clusterBlockingSchema = z.object({
  clusterId: z.string(),
  monthId: z.string(),
  clusterLabel: z.string(),
  reasons: z.array(publishBlockReasonSchema),
  /** The modules named by the `moduleInWip` reasons, in the same order, with their own state. */
  modules: z.array(blockingModuleSchema),
});
export type ClusterBlocking = z.infer<typeof clusterBlockingSchema>;

export const checkForPublishAnswerSchema = z.object({
  /** clusterId → the other clusters of the same month and brand with exactly the same ADDED modules. */
  clusterDuplicatedResponseMap: z.record(z.string(), z.array(z.string())),
  /** The clusters that may not be published, each with its reasons (no store, no module, modules in WIP) and blocking modules. */
  blocking: z.array(clusterBlockingSchema),
});
export type CheckForPublishAnswer = z.infer<typeof checkForPublishAnswerSchema>;

/** One cluster of a publish call: published (its submission started) or not, and why not. */
export const clusterPublishOutcomeSchema = z.object({
  clusterId: z.string(),
  monthId: z.string(),
  clusterLabel: z.string(),
  published: z.boolean(),
  reasons: z.array(publishBlockReasonSchema),
});
export type ClusterPublishOutcome = z.infer<typeof clusterPublishOutcomeSchema>;

/**
 * POST /api/cluster/publish: the clusters without blockers go (one job), the others wait; `clusters`
 * answers each cluster of the body in its order. When none can go, the call is refused (422) as before.
 */
export const publishAnswerSchema = z.object({ message: z.string(), jobId: z.number().int(), clusters: z.array(clusterPublishOutcomeSchema) });
export type ClusterPublishAnswer = z.infer<typeof publishAnswerSchema>;

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
  /** What happened per month, counted (copied, published, not published, failed); absent while the job runs. */
  outcome: copyOutcomeSchema.optional(),
});
export type ClusterCopyAnswer = z.infer<typeof clusterCopyAnswerSchema>;

export const clusterMonthsParamsSchema = z.object({ clusterId: clusterIdSchema });
export const clusterMonthsQuerySchema = z.object({
  monthId: monthIdSchema.optional(),
  purpose: z.enum(['copy', 'delete']).default('copy'),
});
export const clusterMonthsAnswerSchema = z.array(z.string());
