/** Client classifications (part 2 §2 "Client Classification List popup", §3, §5, §9). */
import { z } from 'zod';
import type { Grant } from './grants.js';
import { coercedInt4Id } from './numbers.js';
import { isAdmin } from './permissions.js';
import { LIMITS } from './validation.js';

export const classificationSchema = z.object({
  classificationId: z.number().int(),
  classificationLabel: z.string(),
  /** Live clusters that carry it (deleting it removes it from them). */
  clusterCount: z.number().int(),
});
export type Classification = z.infer<typeof classificationSchema>;

/** `POST /api/classification/create?classificationLabel=`: checked by the service, so the spec's texts answer. */
export const classificationCreateQuerySchema = z.object({ classificationLabel: z.string().max(200).optional() });
export const classificationDeleteQuerySchema = z.object({ classificationId: coercedInt4Id() });

export const CLASSIFICATION_TEXTS = {
  exists: (label: string) => `The client classification ${label} already exists.`,
  notFound: 'The client classification does not exist.',
  notAllowed: "You don't have the right to manage client classifications.",
  searchMax: LIMITS.classificationLabel,
} as const;

/** Creating and deleting classifications: admin or anyone with an edit grant (the spec leaves it open). */
export const canManageClassifications = (grants: readonly Grant[]) => isAdmin(grants) || grants.some((g) => g.types.includes('edit'));
