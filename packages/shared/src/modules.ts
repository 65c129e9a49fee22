import { z } from 'zod';
import { compositionStatusSchema, itemStatusSchema } from './statuses.js';
import { numeric } from './numbers.js';
import { LIMITS } from './validation.js';

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

/** A module in a save / publish request: the browser sends the module back; extra fields are ignored. */
export const moduleSaveSchema = z.object({
  moduleName: z.string().min(1).max(LIMITS.moduleName),
  monthId,
  moduleDescription: z.string().max(LIMITS.description).optional(),
  newDescription: z.string().max(LIMITS.description).nullable().optional(),
  productDtoList: z.array(compositionLineSchema).max(5000).optional(),
  newModule: z.boolean().optional(),
});
export type ModuleSave = z.infer<typeof moduleSaveSchema>;

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
});

export const publishStartedSchema = z.object({ message: z.string(), jobId: z.number() });

export const monthsQuerySchema = z.object({
  monthId: monthId.optional(),
  purpose: z.enum(['copy', 'delete']).default('copy'),
});
