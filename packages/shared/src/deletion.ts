/**
 * Deletion and restore of modules and clusters (part 1 §4, §7, §8; part 2 §2 Deletion Area, §3, §7,
 * §8, §9; contract §6): the payloads of the delete, deleted-search and restore calls, and their texts.
 */
import { z } from 'zod';
import { INT4_MAX } from './numbers.js';
import { DELETION_STATUSES } from './statuses.js';

const monthIdSchema = z.string().regex(/^M(0[1-9]|1[0-2])_\d{4}$/, 'Month ids look like M03_2027');
const itemKeySchema = z.string().trim().min(1).max(200);

export type DeletionItemType = 'module' | 'cluster';

/** Spec texts, copied once (part 1 §8, part 2 §5 and §8). */
export const DELETION_TEXTS = {
  invalidModuleData: 'Invalid data provided for module deletion.',
  invalidClusterData: 'Invalid data provided for cluster deletion.',
  moduleDeleteNotAuthorized: 'No modules selected or you dont have the authorization to delete them',
  clusterDeleteNotAuthorized: "You don't have authorization to delete the selected cluster(s).",
  noItemIds: 'No item IDs provided for restoration.',
  invalidViewType: 'Invalid viewType provided for restoring items',
  moduleRestoreNotAuthorized: "You don't have authorization to restore the selected module(s).",
  clusterRestoreNotAuthorized: "You don't have authorization to restore the selected cluster(s).",
} as const;

/** The text a DELETION_ERROR module carries when a cluster using it is being submitted. */
export const moduleUsedBySubmittingCluster = (clusterLabel: string) => `The module is used by cluster ${clusterLabel} being submitted`;

// ───────────── delete ─────────────

/** `DELETE /api/module`: monthId is the start month. */
export const moduleDeleteRequestSchema = z.array(z.object({ moduleName: itemKeySchema, monthId: monthIdSchema }));
/** `POST /api/module/deleteFromMonth` (the spec's delete-from-month): same effect as DELETE /api/module. */
export const moduleDeleteFromMonthRequestSchema = z.array(z.object({ moduleName: itemKeySchema, monthIdFrom: monthIdSchema }));
/** `DELETE /api/cluster`. */
export const clusterDeleteRequestSchema = z.array(z.object({ clusterId: itemKeySchema, monthId: monthIdSchema }));
/** `POST /api/cluster/deleteFromMonth`. */
export const clusterDeleteFromMonthRequestSchema = z.array(z.object({ clusterId: itemKeySchema, monthIdFrom: monthIdSchema }));

export const deleteResponseSchema = z.object({
  /** Items now DELETION_PENDING: the key (moduleName or clusterId), the start month and every month marked. */
  deleted: z.array(z.object({ key: z.string(), monthIdFrom: z.string(), months: z.array(z.string()) })),
  /** Keys the caller may not delete (skipped). */
  notAuthorized: z.array(z.string()),
  /** Items skipped for another reason (locked by another user). */
  errors: z.array(z.object({ key: z.string(), monthIdFrom: z.string(), message: z.string() })),
});
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

// ───────────── deleted items (Deletion Area) ─────────────

/** A month of an item in the Deletion Area: a deletion status, ACTIVE (live row) or NOT_PRESENT (no row). */
const DELETION_MONTH_STATUSES = [...DELETION_STATUSES, 'ACTIVE', 'NOT_PRESENT'] as const;
const deletionMonthStatusSchema = z.enum(DELETION_MONTH_STATUSES);
export type DeletionMonthStatus = z.infer<typeof deletionMonthStatusSchema>;

export const deletedSearchQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(0).max(INT4_MAX).default(0),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});

const searchBase = {
  /** Overall statuses to keep; an empty list answers an empty page. */
  status: z.array(deletionMonthStatusSchema),
  brand: z.array(z.string().max(100)).nullish(),
};
export const moduleDeletedSearchSchema = z.object({ ...searchBase, moduleName: z.string().max(200).nullish() });
export const clusterDeletedSearchSchema = z.object({ ...searchBase, clusterId: z.string().max(200).nullish() });

const deletionMonthSchema = z.object({
  monthId: z.string(),
  status: deletionMonthStatusSchema,
  /** The row was created again after the deletion request (yellow dot). */
  createdAfterDelete: z.boolean(),
  /** A live row: the item shows in the lists in this month (green dot). */
  uiVisible: z.boolean(),
});
export type DeletionMonth = z.infer<typeof deletionMonthSchema>;

const itemBase = {
  /** The overall status (only DELETION_PENDING items may be restored). */
  status: deletionMonthStatusSchema,
  brand: z.string(),
  errorMessage: z.string().nullable(),
  deleteFromMonthId: z.string(),
  /** The month window (15 months back and 15 forward around the current month), sorted by year then month. */
  openMonthList: z.array(deletionMonthSchema),
};
const moduleDeletionItemSchema = z.object({ moduleName: z.string(), moduleLabel: z.string(), ...itemBase });
const clusterDeletionItemSchema = z.object({
  clusterId: z.string(),
  clusterLabel: z.string(),
  storeJda: z.string().nullable(),
  codiceStoreSap: z.string().nullable(),
  ...itemBase,
});
export type ModuleDeletionItem = z.infer<typeof moduleDeletionItemSchema>;
export type ClusterDeletionItem = z.infer<typeof clusterDeletionItemSchema>;

const pageOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ content: z.array(item), number: z.number(), totalPages: z.number(), totalElements: z.number(), size: z.number() });
export const moduleDeletionPageSchema = pageOf(moduleDeletionItemSchema);
export const clusterDeletionPageSchema = pageOf(clusterDeletionItemSchema);
export type ModuleDeletionPage = z.infer<typeof moduleDeletionPageSchema>;

// ───────────── restore ─────────────

export const moduleRestoreRequestSchema = z.array(z.object({ moduleName: itemKeySchema }));
export const clusterRestoreRequestSchema = z.array(z.object({ clusterId: itemKeySchema }));
/** `POST /api/deletion/restore?viewType=module|cluster`: the key field that matches the view is used. */
export const restoreRequestSchema = z.array(z.object({ moduleName: z.string().max(200).nullish(), clusterId: z.string().max(200).nullish() }));
export const restoreQuerySchema = z.object({ viewType: z.string().max(50).optional() });

export const restoreResponseSchema = z.object({
  restored: z.array(z.string()),
  notRestored: z.array(z.object({ key: z.string(), reason: z.string() })),
});
export type RestoreResponse = z.infer<typeof restoreResponseSchema>;
