import { z } from 'zod';
import { copyOutcomeSchema } from './copy-results.js';
import { compositionStatusSchema, itemStatusSchema } from './statuses.js';
import { numeric } from './numbers.js';
import { LIMITS } from './validation.js';

/** Texts of the module lifecycle (save, publish, lock), written once. */
export const MODULE_TEXTS = {
  notLocked: "Sorry! The module was unlocked by another user, you can't save or publish.",
  submitInProgress: 'The module is being submitted to the planning system and cannot be changed now.',
  reopenRequired: 'The module is submitted: changing it needs the reopen right.',
  releaseClosed: 'The release of this month is closed: its modules are read-only.',
  monthClosed: 'The month is closed: its modules are read-only.',
  notWip: 'Only modules in WIP can be published.',
  noEdit: "You don't have the right to edit this module.",
  noSubmit: "You don't have the right to publish this module.",
} as const;

const monthId = z.string().regex(/^M(0[1-9]|1[0-2])_\d{4}$/, 'Month ids look like M03_2027');

/** A SKU in a module (part 1 §3 Product/SKU), as the server answers it. */
export const productDtoSchema = z.object({
  upc: z.string(),
  skuId: z.number(),
  model: z.string(),
  color: z.string(),
  size: z.string(),
  materialCode: z.string(),
  skuCode: z.string(),
  mustHave: z.boolean(),
  eligible: z.boolean(),
  moduleCompositionStatus: compositionStatusSchema,
  previousStatus: z.string().nullable(),
  /** The MH/EL class before the SKU went to the bin: 'MH' | 'EL' | null. */
  previousVersion: z.string().nullable(),
  minValue: z.number(),
  srp: z.number(),
  whsprice: z.number(),
  sellIn: z.number().nullable(),
  sellOut: z.number().nullable(),
  outOfStars: z.number().nullable(),
  rankSellIn: z.number().nullable(),
  rankSellOut: z.number().nullable(),
  rankOutOfStars: z.number().nullable(),
  skuTurn: z.number().nullable(),
  doorIndex: z.number().nullable(),
  pty: z.number().nullable(),
  releaseDate: z.string(),
  insertDate: z.string(),
  gedExpireDate: z.string().nullable(),
  flagN: z.boolean(),
  flagNewAdv: z.boolean(),
  flagDisco: z.boolean(),
  globalCatalogue: z.string(),
  polar: z.boolean(),
  sapStatus: z.string().nullable(),
  deleted: z.boolean(),
  newIn: z.boolean(),
  imageUrl: z.string(),
});
export type ProductDto = z.infer<typeof productDtoSchema>;

/** A module (part 1 §3 Module), as the server answers it. */
export const moduleDtoSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  moduleDescription: z.string(),
  monthId: z.string(),
  macroFamily: z.string(),
  /** Its macro family's special kind (BEST_SELLER, NEWNESS: listed first on the module page), else null. */
  specialKind: z.string().nullable(),
  brand: z.string(),
  collection: z.string(),
  starZones: z.array(z.string()),
  status: itemStatusSchema,
  locked: z.boolean(),
  userLock: z.string().nullable(),
  legoMonth: z.boolean(),
  inOpenMonth: z.boolean(),
  openMonthIdList: z.array(z.string()),
  productDtoList: z.array(productDtoSchema),
  door: z.number(),
  pty: z.number(),
  refreshIndex: z.number(),
  refreshIndexMH: z.number(),
  refreshIndexEL: z.number(),
  previousMustHave: z.number(),
  previousEligible: z.number(),
  length: z.number(),
  elLength: z.number(),
  initialSize: z.number().nullable(),
  newModule: z.boolean(),
  clusters: z.array(z.object({ clusterLabel: z.string(), starsCustomer: z.array(z.string()) })),
  publicationDate: z.string().nullable(),
  rpasErrors: z.string().nullable(),
  releaseClosed: z.boolean(),
  isEdited: z.boolean(),
  isDescriptionEdited: z.boolean(),
  newDescription: z.string().nullable(),
  /** Bumped by every write: the editor sends it back with its save (docs/LIFECYCLE.md "Version conflicts"). */
  version: z.number().int(),
});
export type ModuleDto = z.infer<typeof moduleDtoSchema>;

/** minValue must be numeric: numbers and numeric strings are accepted, anything else is refused. */
const minValueInput = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'minValue must be numeric').transform(Number)]);

/** A composition line in a save or publish request (other fields of the SKU are ignored). */
export const compositionLineSchema = z.object({
  upc: z.string().min(1).max(20),
  mustHave: z.boolean(),
  moduleCompositionStatus: compositionStatusSchema,
  /** Stored as the line's previous status (the bin remembers where a SKU came from). */
  previousStatus: z.string().max(20).nullish(),
  /** module_skus.min_value is numeric(9,1): at most 99,999,999.9. */
  minValue: minValueInput.pipe(numeric(9, 1, { min: 0 })).optional(),
});
export type CompositionLine = z.infer<typeof compositionLineSchema>;

/** An item's version as the browser sends it back (a positive int4). */
export const itemVersion = z.number().int().min(1).max(2_147_483_647);

/** A module in a save / publish request: the browser sends the module back; extra fields are ignored. */
export const moduleSaveSchema = z.object({
  moduleName: z.string().min(1).max(LIMITS.moduleName),
  monthId,
  moduleDescription: z.string().max(LIMITS.description).optional(),
  newDescription: z.string().max(LIMITS.description).nullable().optional(),
  productDtoList: z.array(compositionLineSchema).max(5000).optional(),
  newModule: z.boolean().optional(),
  /** The version the editor loaded: when given and no longer the module's, the save is refused (409 versionConflict). */
  version: itemVersion.optional(),
});
export type ModuleSave = z.infer<typeof moduleSaveSchema>;
/** What the browser may send as a module to save or publish (minValue may still be text). */
export type ModuleSaveBody = z.input<typeof moduleSaveSchema>;
/** POST /module/saveList and /module/publishList: several modules, all or none. */
export const moduleSaveListSchema = z.array(moduleSaveSchema).min(1).max(500);
/** The answer of POST /module/saveList: [] when every module was saved, else the messages (and nothing saved). */
export const moduleSaveListAnswerSchema = z.array(z.string());
/** The answer of POST /module/publishList: `errors` when refused (nothing published), else the publish job. */
export const modulePublishListAnswerSchema = z.object({ errors: z.array(z.string()).optional(), message: z.string().optional(), jobId: z.number().optional() });

export const moduleKeySchema = z.object({ moduleName: z.string().min(1).max(LIMITS.moduleName), monthId });
export type ModuleKey = z.infer<typeof moduleKeySchema>;

export const macroFamilyKeySchema = z.object({ macroFamily: z.string().min(1).max(LIMITS.familyName), monthId });

/** One entry of a lock answer: the item, who holds it, and whether the caller got it. */
export const lockResultSchema = z.object({
  locked: z.boolean(),
  userLock: z.string().nullable(),
  acquired: z.boolean(),
});
export const moduleLockResultSchema = moduleKeySchema.extend(lockResultSchema.shape);
export const familyLockResultSchema = macroFamilyKeySchema.extend(lockResultSchema.shape);

export const unlockQuerySchema = z.object({ forced: z.enum(['true', 'false']).optional().transform((v) => v === 'true') });

export const copyModulesRequestSchema = z.object({
  modules: z
    .array(z.object({ moduleName: z.string().min(1).max(LIMITS.moduleName), monthId, destinationMonthList: z.array(monthId).min(1, 'Choose at least one month') }))
    .min(1),
  toPublish: z.boolean().default(false),
});
export type CopyModulesRequest = z.infer<typeof copyModulesRequestSchema>;

export const copyErrorSchema = z.object({ moduleName: z.string(), months: z.array(z.string()), message: z.string() });
export const copyModulesResponseSchema = z.object({
  errors: z.array(copyErrorSchema),
  copied: z.array(z.object({ moduleName: z.string(), months: z.array(z.string()) })),
  jobId: z.number(),
  done: z.boolean(),
  /** What happened per month, counted (copied, published, not published, failed); absent while the job runs. */
  outcome: copyOutcomeSchema.optional(),
});

export const publishStartedSchema = z.object({ message: z.string(), jobId: z.number() });

// ───────────── checks before publishing (docs/LIFECYCLE.md "Publish") ─────────────

/** Why an item cannot be published: the planning system's own checks, run before anything is sent. */
export const PUBLISH_BLOCK_CODES = ['noActiveSku', 'skuSapDisabled', 'noStore', 'noModule', 'moduleInWip'] as const;
export const publishBlockReasonSchema = z.object({
  code: z.enum(PUBLISH_BLOCK_CODES),
  message: z.string(),
  /** The SKU at fault (skuSapDisabled). */
  upc: z.string().optional(),
  /** The module at fault inside a cluster (moduleInWip). */
  moduleName: z.string().optional(),
});
export type PublishBlockReason = z.infer<typeof publishBlockReasonSchema>;

/**
 * POST /api/module/checkForPublish body: the modules about to be published. A module may carry its
 * unsaved composition (the lines Save & Publish will save first); only upc and status are read.
 */
export const moduleCheckForPublishSchema = z
  .array(
    moduleKeySchema.extend({
      productDtoList: z
        .array(z.object({ upc: z.string().min(1).max(20), moduleCompositionStatus: compositionStatusSchema }))
        .max(5000)
        .optional(),
    }),
  )
  .min(1)
  .max(500);
export type ModuleCheckForPublish = z.infer<typeof moduleCheckForPublishSchema>;

/** The answer: only the modules that may not be published, each with its reasons (empty list: all clear). */
export const moduleCheckForPublishAnswerSchema = z.object({
  blocking: z.array(z.object({ moduleName: z.string(), monthId: z.string(), moduleLabel: z.string(), reasons: z.array(publishBlockReasonSchema) })),
});
export type ModuleCheckForPublishAnswer = z.infer<typeof moduleCheckForPublishAnswerSchema>;

/** The browser's texts of the checks before publishing and of a rejection (docs/LIFECYCLE.md "Publish"). */
export const PUBLISH_TEXTS = {
  blockedTitle: 'Cannot publish',
  blockedIntro: 'The planning system would refuse what follows: nothing was sent.',
  notPublishedTitle: 'Not published',
  /** One line of a rejection: the item and one reason of the planning system. */
  notPublished: (name: string, reason: string) => `Not published: ${name}: ${reason}`,
  notPublishedBadge: 'Not published',
  publishingModules: 'Publishing the modules...',
} as const;

export const monthsQuerySchema = z.object({
  monthId: monthId.optional(),
  purpose: z.enum(['copy', 'delete']).default('copy'),
});
