/**
 * Creating macro families, modules and clusters from home (part 1 §4 "Creating a module", §5; part 2
 * §2 "Cluster creation", §5): the request schemas, which carry every rule of the forms, and the texts.
 * The forms run the same field checks (`moduleFormErrors`, `clusterFormErrors`) before they call.
 */
import { z } from 'zod';
import { int4Id } from './numbers.js';
import { monthIdSchema } from './reference-data.js';
import { initialSizeError, LIMITS, MESSAGES, textFieldError, type TextRule } from './validation.js';

export const CREATION_TEXTS = {
  moduleExists: 'Unable to create the module because it already exists.',
  clusterExists: 'Unable to create the cluster because it already exists.',
  checkPassed: 'OK',
  familyRequired: 'Choose a macro family',
  collectionRequired: 'Choose a collection',
  brandRequired: 'Choose a brand',
  zonesRequired: 'Choose at least one Stars Zone',
  storesRequired: 'Add at least one store',
  atLeastOneLia: MESSAGES.atLeastOneLia,
  noCreateRight: "You don't have the right to create for this brand and stars zone.",
} as const;

export const FIELD_RULES = {
  familyName: { field: 'macro family name', max: LIMITS.familyName, kind: 'text', required: true },
  moduleName: { field: 'module name', max: LIMITS.moduleName, kind: 'name', required: true },
  moduleLabel: { field: 'module label', max: LIMITS.moduleLabel, kind: 'label', required: true },
  description: { field: 'description', max: LIMITS.description, kind: 'text' },
  clusterId: { field: 'cluster id', max: LIMITS.clusterId, kind: 'name', required: true },
  clusterLabel: { field: 'cluster label', max: LIMITS.clusterLabel, kind: 'label', required: true },
} as const satisfies Record<string, TextRule>;

/** A string checked with one of the rules above; the zod issue carries the people's text. */
const ruled = (rule: TextRule) =>
  z.string({ error: rule.required ? `Insert the ${rule.field}` : `The ${rule.field} must be text` }).superRefine((v, ctx) => {
    const error = textFieldError(v, rule);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });
/**
 * A form field's check: a message shown while nothing is chosen (null, '', no entry, 0), a text rule, or a
 * function that gives the field's message.
 */
type FieldCheck<T> = string | TextRule | ((value: T) => string | null);

/** A create form's messages by field, in the order of `checks` (empty when every rule holds). */
function formErrors<V extends object>(values: V, checks: { [K in keyof V]: FieldCheck<V[K]> }): Partial<Record<keyof V, string>> {
  const out: Partial<Record<keyof V, string>> = {};
  for (const field of Object.keys(checks) as (keyof V)[]) {
    const check: FieldCheck<V[typeof field]> = checks[field];
    const value = values[field];
    const message =
      typeof check === 'function'
        ? check(value)
        : typeof check === 'string'
          ? (Array.isArray(value) ? value.length === 0 : !value) && check
          : textFieldError(value as string, check);
    if (message) out[field] = message;
  }
  return out;
}

const code = (message: string) => z.string({ error: message }).trim().min(1, message).max(50);
const optionalDescription = ruled(FIELD_RULES.description).nullish().transform((v) => v ?? '');

// ───────────── macro family ─────────────

/** `POST /api/module/macroFamily/create`. */
export const macroFamilyCreateSchema = z.object({ macroFamily: ruled(FIELD_RULES.familyName).transform((v) => v.trim()) });
export const macroFamilySchema = z.object({ macroFamily: z.string(), specialKind: z.string().nullable() });
export type MacroFamily = z.infer<typeof macroFamilySchema>;

// ───────────── module ─────────────

/** `POST /api/module/checkIfExists/`: the spec's body (moduleName, monthId, moduleLabel, moduleDescription). */
export const moduleExistsRequestSchema = z.object({
  moduleName: ruled(FIELD_RULES.moduleName),
  monthId: monthIdSchema,
  moduleLabel: ruled(FIELD_RULES.moduleLabel),
  moduleDescription: optionalDescription,
});
export type ModuleExistsRequest = z.infer<typeof moduleExistsRequestSchema>;

/** A passed existence check; a failed one is a 409 whose message lists the reasons, separated by ';'. */
export const existsAnswerSchema = z.object({ description: z.string() });

/** `POST /api/module/create`: a new module (WIP, no SKUs yet). */
export const moduleCreateSchema = z.object({
  moduleName: ruled(FIELD_RULES.moduleName),
  moduleLabel: ruled(FIELD_RULES.moduleLabel),
  moduleDescription: optionalDescription,
  monthId: monthIdSchema,
  macroFamily: code(CREATION_TEXTS.familyRequired).pipe(z.string().max(LIMITS.familyName)),
  brand: code(CREATION_TEXTS.brandRequired),
  collection: code(CREATION_TEXTS.collectionRequired),
  starZones: z.array(z.string().min(1).max(50), { error: CREATION_TEXTS.zonesRequired }).min(1, CREATION_TEXTS.zonesRequired).max(50),
  planningChannel: z.string().min(1).max(50).nullish(),
  initialSize: z
    .number({ error: 'The initial size must be a number' })
    .nullish()
    .superRefine((v, ctx) => {
      const error = initialSizeError(v);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  /** Newness (true, the default for a new module) or Carry Over. */
  newModule: z.boolean().default(true),
});
export type ModuleCreate = z.input<typeof moduleCreateSchema>;

export interface ModuleFormValues {
  macroFamily: string | null;
  collection: string | null;
  brand: string | null;
  starZones: string[];
  moduleName: string;
  moduleLabel: string;
  moduleDescription: string;
  initialSize: number | null;
}

/** The create-module form's messages by field (empty when every rule holds). */
export const moduleFormErrors = (v: ModuleFormValues) =>
  formErrors(v, {
    macroFamily: CREATION_TEXTS.familyRequired,
    collection: CREATION_TEXTS.collectionRequired,
    brand: CREATION_TEXTS.brandRequired,
    starZones: CREATION_TEXTS.zonesRequired,
    moduleName: FIELD_RULES.moduleName,
    moduleLabel: FIELD_RULES.moduleLabel,
    moduleDescription: FIELD_RULES.description,
    initialSize: initialSizeError,
  });

// ───────────── cluster ─────────────

/** A store of a new cluster (part 2 §3 "Store entry in a new cluster"). */
const newClusterStoreSchema = z.object({
  codiceStoreSap: z.string().trim().min(1, 'Insert the SAP code').max(50),
  /** The store (storeJda); optional: the SAP code identifies it. */
  storeId: z.string().max(50).nullish(),
  starsCustomer: z.string().trim().min(1, 'Choose the Stars customer').max(50),
  customerSegmentation: z
    .union([z.string().max(50), z.array(z.string().max(50)).max(10)])
    .transform((v) => (Array.isArray(v) ? v : [v]).filter(Boolean))
    .pipe(z.array(z.string()).min(1, 'Choose the segment')),
});

/** LIAs as codes, or as the cluster answer lists them ({ liaCode, isChecked }: the checked ones count). */
const liaList = z
  .array(z.union([z.string().min(1).max(50), z.object({ liaCode: z.string().min(1).max(50), isChecked: z.boolean().optional() })]))
  .max(100)
  .transform((list) => [...new Set(list.flatMap((l) => (typeof l === 'string' ? [l] : l.isChecked === false ? [] : [l.liaCode])))])
  .pipe(z.array(z.string()).min(1, CREATION_TEXTS.atLeastOneLia));

const clusterBase = {
  clusterId: ruled(FIELD_RULES.clusterId),
  clusterLabel: ruled(FIELD_RULES.clusterLabel),
  clusterDescription: optionalDescription,
  monthId: monthIdSchema,
};

/** `POST /api/cluster/checkIfExists/`. */
export const clusterExistsRequestSchema = z.object(clusterBase);
export type ClusterExistsRequest = z.infer<typeof clusterExistsRequestSchema>;

/** One cluster of `POST /api/cluster/massiveCreation/` (a list; home sends one). */
export const clusterCreateSchema = z.object({
  ...clusterBase,
  brandCode: code(CREATION_TEXTS.brandRequired),
  collection: code(CREATION_TEXTS.collectionRequired),
  lias: liaList,
  starZones: z.array(z.string().min(1).max(50), { error: CREATION_TEXTS.zonesRequired }).min(1, CREATION_TEXTS.zonesRequired).max(50),
  stores: z.array(newClusterStoreSchema, { error: CREATION_TEXTS.storesRequired }).min(1, CREATION_TEXTS.storesRequired).max(2000),
  classifications: z.array(int4Id()).max(100).nullish(),
});
export type ClusterCreate = z.input<typeof clusterCreateSchema>;
export type ClusterCreateParsed = z.output<typeof clusterCreateSchema>;
export const clusterCreateListSchema = z.array(clusterCreateSchema).min(1).max(100);

export interface ClusterFormValues {
  collection: string | null;
  brandCode: string | null;
  lias: string[];
  clusterId: string;
  clusterLabel: string;
  clusterDescription: string;
  starZones: string[];
  storeCount: number;
}

/** The create-cluster form's messages by field (empty when every rule holds). */
export const clusterFormErrors = (v: ClusterFormValues) =>
  formErrors(v, {
    collection: CREATION_TEXTS.collectionRequired,
    brandCode: CREATION_TEXTS.brandRequired,
    lias: CREATION_TEXTS.atLeastOneLia,
    clusterId: FIELD_RULES.clusterId,
    clusterLabel: FIELD_RULES.clusterLabel,
    clusterDescription: FIELD_RULES.description,
    starZones: CREATION_TEXTS.zonesRequired,
    storeCount: CREATION_TEXTS.storesRequired,
  });

/** `POST /api/cluster/getGenericName`. */
export const genericNameRequestSchema = z.object({
  releaseId: z.string().max(50).nullish(),
  planningChannel: z.string().max(50).nullish(),
  collection: code(CREATION_TEXTS.collectionRequired),
  brand: code(CREATION_TEXTS.brandRequired),
  country: z.union([z.string().max(50), z.array(z.string().max(50)).max(50)]).nullish(),
});
export const genericNameAnswerSchema = z.object({ clusterId: z.string() });

/** `GET /api/store/bySap/:codiceStoreSap`: the store a SAP code names, for the cluster form. */
export const storeLookupSchema = z.object({
  storeJda: z.string(),
  codiceStoreSap: z.string(),
  name: z.string(),
  starsCustomer: z.string(),
  starsCustomerName: z.string(),
  customerSegmentation: z.string(),
  countryCode: z.string(),
  starsZone: z.string(),
  planningChannelId: z.string(),
});
export type StoreLookup = z.infer<typeof storeLookupSchema>;
