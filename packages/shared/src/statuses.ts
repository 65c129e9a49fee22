import { z } from 'zod';

export const ITEM_STATUSES = ['WIP', 'SUBMIT_IN_PROGRESS', 'SUBMITTED'] as const;
export const itemStatusSchema = z.enum(ITEM_STATUSES);
export type ItemStatus = z.infer<typeof itemStatusSchema>;

export const COMPOSITION_STATUSES = ['ADDED', 'NEW', 'REMOVED'] as const;
export const compositionStatusSchema = z.enum(COMPOSITION_STATUSES);

export const CLUSTER_COMPOSITION_STATUSES = ['ADDED', 'REMOVED'] as const;
export const clusterCompositionStatusSchema = z.enum(CLUSTER_COMPOSITION_STATUSES);

export const DELETION_STATUSES = ['DELETION_PENDING', 'READY_TO_BE_DELETED', 'DELETION_IN_PROGRESS', 'DELETED', 'DELETION_ERROR'] as const;

/** 'SUBMIT_IN_PROGRESS' → 'SUBMIT IN PROGRESS' (status text is shown with spaces). */
export const statusLabel = (status: string) => status.replace(/_/g, ' ');
