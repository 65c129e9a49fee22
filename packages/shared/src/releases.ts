/** Manage Releases (spec part 1 §2, §3 "Release", §4 "Release", §7 "Releases"): payloads and texts. */
import { z } from 'zod';

const RELEASE_STATUSES = ['OPEN', 'CLOSED'] as const;
const releaseStatusSchema = z.enum(RELEASE_STATUSES);
export type ReleaseStatus = z.infer<typeof releaseStatusSchema>;

const VISIBILITIES = ['PUBLISHED', 'UNPUBLISHED'] as const;
const visibilitySchema = z.enum(VISIBILITIES);
export type Visibility = z.infer<typeof visibilitySchema>;

/** How many planning months a new release opens. */
export const RELEASE_MONTH_COUNT = 12;

const releaseMonthSchema = z.object({ monthId: z.string(), open: z.boolean() });

/** A release with the planning months it owns (sorted by year, then month). Dates are ISO timestamps. */
export const releaseSchema = z.object({
  releaseId: z.string(),
  creationDate: z.string(),
  status: releaseStatusSchema,
  foVisibility: visibilitySchema,
  foPublicationDate: z.string().nullable(),
  viewerVisibility: visibilitySchema,
  viewerPublicationDate: z.string().nullable(),
  months: z.array(releaseMonthSchema),
});
export type Release = z.infer<typeof releaseSchema>;

/** Release ids are short codes such as R2028: letters, digits, '_' and '-'. */
export const releaseIdSchema = z
  .string()
  .trim()
  .min(1, 'Enter a release id')
  .max(20, 'At most 20 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, _ and - only');

export const releaseIdBodySchema = z.object({ releaseId: releaseIdSchema });
export type ReleaseIdBody = z.infer<typeof releaseIdBodySchema>;

const RELEASE_ACTIONS = ['close', 're-open'] as const;
export const changeReleaseStatusSchema = z.object({ releaseId: releaseIdSchema, action: z.enum(RELEASE_ACTIONS) });
export type ChangeReleaseStatus = z.infer<typeof changeReleaseStatusSchema>;

export const RELEASE_TEXTS = {
  openExists: 'A release is open: close it before creating a new one.',
  otherOpen: (open: string) => `The release ${open} is open: close it before re-opening another one.`,
  exists: (id: string) => `The release ${id} already exists.`,
  notFound: (id: string) => `The release ${id} does not exist.`,
  alreadyPublished: 'The release is already published to the front office.',
  alreadyPublishedViewer: 'The release is already published to viewers.',
  closeQuestion: (id: string) => `Are you sure you want to close the release ${id}?`,
  reopenQuestion: (id: string) => `Are you sure you want to re-open the release ${id}?`,
} as const;
