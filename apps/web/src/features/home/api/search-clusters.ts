import { z } from 'zod';
import { clusterListItemSchema, type SearchFilters } from '@bo/shared/search';
import { api } from '@/lib/api-client';

/** POST /cluster/filtered: the clusters of the search; 413 past the limit. */
export const searchClusters = (filters: SearchFilters, signal?: AbortSignal) =>
  api.post('/cluster/filtered', filters, { schema: z.array(clusterListItemSchema), signal });
