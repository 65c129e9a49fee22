/**
 * The home search (part 1 §2 "Home", §3 "Filter keys", §7; part 2 §7; contract §2): the filter body
 * every search and filter-option call takes, the option answer, and the list shapes of modules and
 * clusters that the result columns show.
 */
import { z } from 'zod';
import { monthIdSchema } from './reference-data.js';
import { clusterDtoSchema } from './clusters.js';
import { moduleDtoSchema } from './modules.js';
import { LIMITS } from './validation.js';

/**
 * The filter keys of part 1 §3, plus `starsZone`: the home's "Stars zone" filter (a module's
 * `starZones`, a cluster's stars zones). Every key takes a list of values.
 */
const FILTER_KEYS = [
  'monthId',
  'planningChannel',
  'country',
  'starsCustomer',
  'starsZone',
  'collection',
  'brand',
  'newModule',
  'macroFamily',
  'clusterId',
  'customerSegmentation',
  'rangeFacing',
  'storeJda',
  'codiceStoreSap',
  'moduleLabel',
  'clusterLabel',
  'clientClassification',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
const filterKeySchema = z.enum(FILTER_KEYS);

/** The keys the option calls answer by default (the home asks for fewer with `?keys=`). */
export const MODULE_OPTION_KEYS = ['monthId', 'planningChannel', 'brand', 'collection', 'starsZone', 'country', 'macroFamily', 'newModule'] as const satisfies readonly FilterKey[];
export const CLUSTER_OPTION_KEYS = [
  'monthId',
  'planningChannel',
  'brand',
  'collection',
  'starsZone',
  'country',
  'starsCustomer',
  'customerSegmentation',
  'clientClassification',
] as const satisfies readonly FilterKey[];

const value = z.string().trim().min(1).max(100);
const textValue = z.string().trim().min(1).max(LIMITS.moduleLabelSearch);
const list = z.array(value).max(1000).nullish();
const textList = z.array(textValue).max(50).nullish();

/**
 * A search or filter body: `{ "monthId": ["M03_2027"], "brand": ["AUR"], "collection": ["SUN"] }`.
 * Filters combine by intersection, the values of one filter by union; a missing, null or empty list
 * does not filter. Unknown keys are ignored.
 */
export const searchFiltersSchema = z.object({
  monthId: z.array(monthIdSchema).max(100).nullish(),
  planningChannel: list,
  country: list,
  starsCustomer: list,
  starsZone: list,
  collection: list,
  brand: list,
  /** 'true' = Newness, 'false' = Carry Over. */
  newModule: z.array(z.enum(['true', 'false'])).max(2).nullish(),
  macroFamily: list,
  clusterId: list,
  customerSegmentation: list,
  rangeFacing: list,
  storeJda: list,
  codiceStoreSap: list,
  moduleLabel: textList,
  clusterLabel: textList,
  /** Classification labels (or ids written as numbers). */
  clientClassification: list,
});
export type SearchFilters = z.infer<typeof searchFiltersSchema>;

export const filterOptionSchema = z.object({ value: z.string(), label: z.string() });
export type FilterOption = z.infer<typeof filterOptionSchema>;

/** `{ <filterKey>: [{ value, label }] }` (contract §2). */
export const filterOptionsSchema = z.partialRecord(filterKeySchema, z.array(filterOptionSchema));
export type FilterOptions = z.infer<typeof filterOptionsSchema>;

/** `?keys=brand,collection`: only these option lists (default: every key of the item kind). */
export const filterOptionsQuerySchema = z.object({
  keys: z
    .string()
    .max(500)
    .optional()
    .transform((text, ctx) => {
      if (!text) return undefined;
      const keys = text.split(',').map((k) => k.trim()).filter(Boolean);
      const bad = keys.filter((k) => !(FILTER_KEYS as readonly string[]).includes(k));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `Unknown filter keys: ${bad.join(', ')}` });
        return z.NEVER;
      }
      return keys as FilterKey[];
    }),
});

/** `POST /api/module/filteredDry`, `/api/cluster/filteredDry`: how many items the search would list. */
export const searchCountSchema = z.object({ count: z.number().int() });

// ───────────── list shapes ─────────────

/**
 * Who last changed an item and when (the home rows show it; "last change" sorts by it). Every write
 * (save, publish, copy, delete, restore, approval) stamps both.
 */
const lastChange = {
  /** User name of the last writer; null for items loaded by an import that named nobody. */
  updatedBy: z.string().nullable(),
  /** ISO 8601 (UTC). */
  updatedAt: z.string(),
};

/**
 * A module in a result list: the module's own fields (part 1 §3) and its MH and EL counts (`length`,
 * `elLength`: SKUs not in the bin), without its SKU list and the figures that need the SKUs' data (pty,
 * refresh indexes, previous counts): those come with the module itself (`POST /api/module/modules`).
 */
export const moduleListItemSchema = moduleDtoSchema
  .pick({
    moduleName: true,
    moduleLabel: true,
    moduleDescription: true,
    monthId: true,
    macroFamily: true,
    brand: true,
    collection: true,
    starZones: true,
    status: true,
    newModule: true,
    locked: true,
    userLock: true,
    legoMonth: true,
    inOpenMonth: true,
    releaseClosed: true,
    door: true,
    length: true,
    elLength: true,
    initialSize: true,
    rpasErrors: true,
    publicationDate: true,
  })
  .extend({ planningChannel: z.string().nullable(), ...lastChange });
export type ModuleListItem = z.infer<typeof moduleListItemSchema>;

/** A cluster in a result list (part 2 §3 Cluster, without stores, LIAs and modules). */
export const clusterListItemSchema = clusterDtoSchema
  .pick({
    clusterId: true,
    clusterLabel: true,
    clusterDescription: true,
    monthId: true,
    brandCode: true,
    collection: true,
    country: true,
    starZones: true,
    status: true,
    locked: true,
    userLock: true,
    legoMonth: true,
    inOpenMonth: true,
    releaseClosed: true,
    rangeFacing: true,
    door: true,
    rpasErrors: true,
    publicationDate: true,
  })
  .extend({ planningChannel: z.string().nullable(), ...lastChange });
export type ClusterListItem = z.infer<typeof clusterListItemSchema>;

/** `POST /api/module/macroFamily`: special families (best sellers, newness) first, the others alphabetical. */
export const macroFamilyGroupSchema = z.object({
  macroFamily: z.string(),
  /** BEST_SELLER | NEWNESS | null */
  specialKind: z.string().nullable(),
  moduleList: z.array(moduleListItemSchema),
});
export type MacroFamilyGroup = z.infer<typeof macroFamilyGroupSchema>;

// ───────────── browser helpers ─────────────

/** Orders families as the spec wants: best sellers, newness, then the others alphabetically. */
export function compareFamilies(a: { macroFamily: string; specialKind: string | null }, b: { macroFamily: string; specialKind: string | null }): number {
  const rank = (k: string | null) => (k === 'BEST_SELLER' ? 0 : k === 'NEWNESS' ? 1 : 2);
  return rank(a.specialKind) - rank(b.specialKind) || (a.macroFamily < b.macroFamily ? -1 : a.macroFamily > b.macroFamily ? 1 : 0);
}

