/** Suggested clusters and the Approve cluster page (part 2 §2, §3 "Suggested cluster line", §4, §7). */
import { z } from 'zod';

const SUGGESTION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
const suggestionStatusSchema = z.enum(SUGGESTION_STATUSES);
export type SuggestionStatus = z.infer<typeof suggestionStatusSchema>;

/** Module types shown in the 'Viewing cluster' preview. */
export const PREVIEW_FO_TYPES = ['SWITCH', 'NOT SWITCH'] as const;

export const SUGGESTION_TEXTS = {
  header: 'Approve cluster',
  viewing: 'Viewing cluster',
  moduleComposition: 'Module Composition',
  compositionPlaceholder: 'Click on a module to see its composition',
  approved: 'You have approved the cluster',
  rejected: 'You have rejected the cluster',
  notPending: 'Only pending suggestions can be approved or rejected.',
  noMonth: 'There is no open month in the release of the suggestion: it cannot be approved.',
  noBrand: 'The suggestion has no brand or collection: it cannot be approved.',
  otherBrand: (clusterId: string) => `The cluster ${clusterId} belongs to another brand or collection in that month.`,
  locked: (user: string) => `The cluster is being edited by ${user}: try again later.`,
  submitInProgress: 'The cluster is being submitted to the planning system: try again when the submission ends.',
  notAllowed: "You don't have the right to approve or reject this suggestion.",
} as const;

const suggestedStoreSchema = z.object({ starsCustomer: z.string(), storeJda: z.string(), customerSegmentation: z.string() });
const suggestedModuleSchema = z.object({
  foType: z.string(),
  moduleName: z.string(),
  moduleNameSwitch: z.string().nullable(),
  added: z.boolean(),
  /** From the module in the suggestion's month; null when it does not exist there. */
  moduleLabel: z.string().nullable(),
  macroFamily: z.string().nullable(),
});

/** One suggested cluster line (part 2 §3); the three list columns carry the unique values. */
const suggestedClusterSchema = z.object({
  assortmentId: z.string(),
  originalAssortment: z.string(),
  releaseId: z.string().nullable(),
  monthId: z.string().nullable(),
  brandCode: z.string().nullable(),
  collection: z.string().nullable(),
  country: z.string(),
  userSuggest: z.string(),
  /** YYYY-MM-DD */
  dateSuggest: z.string(),
  period: z.string(),
  starsCustomer: z.array(z.string()),
  customerSegmentation: z.array(z.string()),
  storeJda: z.array(z.string()),
  status: suggestionStatusSchema,
  /** The reject reason. */
  message: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  stores: z.array(suggestedStoreSchema),
  modules: z.array(suggestedModuleSchema),
  /** PENDING and the caller may approve or reject it (edit grant on the cluster's scope, or admin). */
  canDecide: z.boolean(),
});
export type SuggestedCluster = z.infer<typeof suggestedClusterSchema>;

export const SUGGESTION_FILTER_KEYS = [
  'country',
  'userSuggest',
  'dateSuggest',
  'originalAssortment',
  'assortmentId',
  'period',
  'starsCustomer',
  'customerSegmentation',
  'storeJda',
  'status',
] as const;
export type SuggestionFilterKey = (typeof SUGGESTION_FILTER_KEYS)[number];

const optionSchema = z.object({ value: z.string(), label: z.string() });
export const suggestListRequestSchema = z.object({ country: z.array(z.string().min(1).max(10)).max(300).default([]) });
export const suggestListAnswerSchema = z.object({
  rows: z.array(suggestedClusterSchema),
  filters: z.record(z.enum(SUGGESTION_FILTER_KEYS), z.array(optionSchema)),
});
export type SuggestListAnswer = z.infer<typeof suggestListAnswerSchema>;

/** The cluster line the browser sends back: only its id counts. */
export const acceptRequestSchema = z.object({ assortmentId: z.string().min(1).max(100) });
export const rejectRequestSchema = z.object({
  assortmentId: z.string().min(1).max(100),
  message: z.string().max(500).nullable().optional(),
});

export const decisionAnswerSchema = z.object({
  status: suggestionStatusSchema,
  message: z.string(),
  /** The cluster created or updated by an approval. */
  clusterId: z.string().nullable(),
  monthId: z.string().nullable(),
  /** Suggested modules not in the month (or of another brand), left out of the cluster. */
  skippedModules: z.array(z.string()),
});
export type DecisionAnswer = z.infer<typeof decisionAnswerSchema>;

