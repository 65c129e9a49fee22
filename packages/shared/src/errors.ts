import { z } from 'zod';

/** Every error the server answers: a stable key and a text for people (contract §6). */
export const errorResponseSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const ERROR_TEXTS = {
  credentialsInvalid: 'The credentials are invalid',
  noGrants: 'User has no grants',
  tooManyResults: 'The search returned too many elements',
  changeFilters: 'Change the filters and search again',
} as const;
