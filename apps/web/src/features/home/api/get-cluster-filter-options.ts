import { filterOptionsSchema, type FilterKey, type SearchFilters } from '@bo/shared/search';
import { api } from '@/lib/api-client';

/** POST /cluster/filters?keys=…: the values of each filter among the clusters matching the other filters. */
export const getClusterFilterOptions = (filters: SearchFilters, keys: readonly FilterKey[], signal?: AbortSignal) =>
  api.post('/cluster/filters', filters, { schema: filterOptionsSchema, query: { keys: keys.join(',') }, signal });
