import { z } from 'zod';
import { macroFamilyGroupSchema, type SearchFilters } from '@bo/shared/search';
import { api } from '@/lib/api-client';

/** POST /module/macroFamily: the modules of the search by family (best sellers, newness, then A–Z); 413 past the limit. */
export const searchMacroFamilies = (filters: SearchFilters, signal?: AbortSignal) =>
  api.post('/module/macroFamily', filters, { schema: z.array(macroFamilyGroupSchema), signal });
