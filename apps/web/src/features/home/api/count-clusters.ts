import { searchCountSchema, type SearchFilters } from '@bo/shared/search';
import { api } from '@/lib/api-client';

/** POST /cluster/filteredDry: how many clusters the search will list. */
export const countClusters = (filters: SearchFilters, signal?: AbortSignal) =>
  api.post('/cluster/filteredDry', filters, { schema: searchCountSchema, signal, alertOnError: false });
