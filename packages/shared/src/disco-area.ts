/**
 * The Discontinuation / Removed Area (part 2 §2, §3 "Discontinued/removed SKU row" and "Disco filter
 * payload", §4 "Disco/removed", §5, §8, §9; docs/disco-area.md): the paged lists of discontinued and
 * removed SKUs still in modules, their filter options, the alert counts, and the guided replacement.
 */
import { z } from 'zod';
import { AREA_TEXTS } from './area-texts.js';

/** The page's two views (the sidebar switch 'Disco Area' / 'Removed Area'). */
export const DISCO_VIEWS = ['disco', 'removed'] as const;
export type DiscoView = (typeof DISCO_VIEWS)[number];

/** Rows per page (the answer's `maxResultsForPage`; part 2 §7: the server sets it). */
export const DISCO_PAGE_SIZE = 50;

/** The 'Super disco' type (skus.disco_type) that carries the 'Super discontinued SKU' icon. */
export const SUPER_DISCO = 'Super disco';

/** The months of sell-out that rank the replacement proposals (the working area's default window). */
export const REPLACEMENT_ROLLING_MONTHS = 6;
/** At most this many replacement proposals. */
export const MAX_REPLACEMENT_PROPOSALS = 5;

/** The keys of the disco filter payload (part 2 §3), each a list of values. */
export const DISCO_FILTER_KEYS = [
  'brandCode',
  'commodity',
  'skuCode',
  'materialCode',
  'moduleLabel',
  'upc',
  'planningChannel',
  'starsZones',
  'type',
  'months',
  'storeCount',
] as const;
export type DiscoFilterKey = (typeof DISCO_FILTER_KEYS)[number];

const values = z.array(z.string().min(1).max(100)).max(500);

const filterShape = Object.fromEntries(DISCO_FILTER_KEYS.map((k) => [k, values.optional()])) as Record<DiscoFilterKey, z.ZodOptional<typeof values>>;

/** Body of the option calls (POST …Filters): the chosen filters narrow the others' options. */
export const discoFiltersSchema = z.strictObject(filterShape);
export type DiscoFilters = z.infer<typeof discoFiltersSchema>;

/** Body of POST /api/sku/skuDiscoInfo and /api/sku/skuDeletedInfo: the filters and the zero-based page (part 2 §9). */
export const discoListRequestSchema = z.strictObject({ ...filterShape, pageIndex: z.number().int().min(0).max(1_000_000).default(0) });
export type DiscoListRequest = z.input<typeof discoListRequestSchema>;

const optionSchema = z.object({ value: z.string(), label: z.string() });
/** `{ <key>: [{ value, label }] }`, like the other filter-option calls. */
export const discoFilterOptionsSchema = z.object(
  Object.fromEntries(DISCO_FILTER_KEYS.map((k) => [k, z.array(optionSchema)])) as Record<DiscoFilterKey, z.ZodArray<typeof optionSchema>>,
);
export type DiscoFilterOptions = z.infer<typeof discoFilterOptionsSchema>;

/** One row per (SKU, module, month) (part 2 §3 "Discontinued/removed SKU row"). */
const discoRowSchema = z.object({
  upc: z.string(),
  /** 'Disco', 'Super disco', 'GED expired', 'SAP disabled' or 'Removed' (docs/disco-area.md). */
  type: z.string(),
  gedConfirmed: z.boolean(),
  /** ISO date (yyyy-mm-dd) or null. */
  gedExpiryDate: z.string().nullable(),
  materialCode: z.string(),
  moduleName: z.string(),
  monthId: z.string(),
  moduleLabel: z.string(),
  skuCode: z.string(),
  brandCode: z.string(),
  commodity: z.string(),
  legoMonth: z.boolean(),
  locked: z.boolean(),
  userLock: z.string().nullable(),
});
export type DiscoRow = z.infer<typeof discoRowSchema>;

export const discoPageSchema = z.object({ count: z.number().int(), maxResultsForPage: z.number().int(), skuDiscoTypeDtoList: z.array(discoRowSchema) });
export type DiscoPage = z.infer<typeof discoPageSchema>;

/** GET /api/sku/skuDiscoAlert/: the same counts as the home bells (GET /api/sku/badgeCounts). */
export const discoAlertSchema = z.object({ numDisco: z.number().int(), numRemoved: z.number().int() });

// ───────────── guided replacement (beyond the spec) ─────────────

export const replacementRequestSchema = z.strictObject({ upc: z.string().min(1).max(40) });

const productShape = {
  upc: z.string(),
  model: z.string(),
  color: z.string(),
  colorDescription: z.string(),
  size: z.string(),
  skuCode: z.string(),
  materialCode: z.string(),
  /** Suggested retail price, euros. */
  srp: z.number(),
};
const replacementSkuSchema = z.object({ ...productShape, brandCode: z.string(), collection: z.string(), macroFamilies: z.array(z.string()) });
/**
 * A proposal: its sell-out summed over the rolling window, and how many of the old SKU's `usages` sit in a
 * module that already holds it (the replacement then only
 * removes the old SKU there and gives the proposal the old one's class).
 */
const replacementProposalSchema = z.object({ ...productShape, sellOut: z.number().int(), alreadyIn: z.number().int() });
/** A line of the SKU in a live module of an open month the caller may edit. */
const replacementUsageSchema = z.object({
  moduleName: z.string(),
  moduleLabel: z.string(),
  monthId: z.string(),
  mustHave: z.boolean(),
  minValue: z.number(),
});
export const replacementProposalsSchema = z.object({
  sku: replacementSkuSchema,
  proposals: z.array(replacementProposalSchema).max(MAX_REPLACEMENT_PROPOSALS),
  usages: z.array(replacementUsageSchema),
  /** The months whose sell-out ranks the proposals. */
  rollingMonths: z.array(z.string()),
});
export type ReplacementUsage = z.infer<typeof replacementUsageSchema>;
export type ReplacementProposals = z.infer<typeof replacementProposalsSchema>;

export const DISCO_TEXTS = {
  discoArea: 'Disco Area',
  removedArea: 'Removed Area',
  goToMassiveEdit: 'GO TO MASSIVE EDIT',
  empty: AREA_TEXTS.empty,
  superDisco: 'Super discontinued SKU',
  unlockQuestion: 'Do you want unlock this module?',
  editing: (owner: string) => `${owner} is editing the module`,
  total: (n: number, m: number) => `Total Skus: ${n}, skus per page: ${m}`,
  noRight: 'You do not have access to the Disco/Removed Area: it needs an edit permission.',
  noAccessTitle: 'No access to the Disco/Removed Area',
  notListed: 'This SKU is not among your discontinued or removed SKUs',
  replaceAll: 'Replace in all open months',
  noProposal: 'No replacement found: no SKU of the same brand, macro family and collection is still active.',
  noUsage: 'The SKU is in no module of an open month that you may edit.',
} as const;
