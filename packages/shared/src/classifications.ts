/** Client classifications (part 2 §2 "Client Classification List popup", §3, §5, §9). */
import { z } from 'zod';
import type { Grant } from './grants.js';
import { coercedInt4Id } from './numbers.js';
import { isAdmin } from './permissions.js';
import { LIMITS } from './validation.js';

export const classificationSchema = z.object({
  classificationId: z.number().int(),
  classificationLabel: z.string(),
  /** Live clusters that carry it (deleting it changes each of them: docs/DECISIONS.md "Deleting a client classification"). */
  clusterCount: z.number().int(),
});
export type Classification = z.infer<typeof classificationSchema>;

/** `POST /api/classification/create?classificationLabel=`: checked by the service, so the spec's texts answer. */
export const classificationCreateQuerySchema = z.object({ classificationLabel: z.string().max(200).optional() });
export const classificationDeleteQuerySchema = z.object({ classificationId: coercedInt4Id() });

/** How many refused clusters a refused delete names (one line each in the popup); the others are counted. */
export const IN_USE_NAMED_MAX = 20;

export const CLASSIFICATION_TEXTS = {
  exists: (label: string) => `The client classification ${label} already exists.`,
  notFound: 'The client classification does not exist.',
  notAllowed: "You don't have the right to manage client classifications.",
  /**
   * 403 classificationInUse: one line (`;`-separated, the popup shows one per line) per carrying cluster the
   * caller may not change now, and how many they may not see (those are not named).
   */
  inUse: (label: string, lines: readonly string[]) => [`The client classification ${label} cannot be deleted: it is on clusters you may not change now`, ...lines].join('; '),
  inUseCluster: (clusterLabel: string, clusterId: string, month: string, reason: string) => `${clusterLabel} (${clusterId}, ${month}): ${reason}`,
  inUseUnseen: (n: number) => `${n} cluster${n === 1 ? '' : 's'} you may not see`,
  /** The refused clusters beyond the first IN_USE_NAMED_MAX, which are named. */
  inUseMore: (n: number) => `and ${n} more cluster${n === 1 ? '' : 's'} you may not change`,
  mayNotEditCluster: 'You may not edit the cluster',
  /** 400 unknownClassification of a cluster save (a revert, mostly) naming a classification deleted since. */
  deleted: (label: string) => `The client classification ${label} was deleted: a cluster can no longer carry it (leave it out and save again)`,
  searchMax: LIMITS.classificationLabel,
} as const;

/** Creating and deleting classifications: admin or anyone with an edit grant (the spec leaves it open). */
export const canManageClassifications = (grants: readonly Grant[]) => isAdmin(grants) || grants.some((g) => g.types.includes('edit'));
