import { filterOptionsSchema, type FilterKey, type SearchFilters } from '@bo/shared/search';
import { api } from '@/lib/api-client';

/** POST /module/filters?keys=…: the values of each filter among the modules matching the other filters. */
export const getModuleFilterOptions = (filters: SearchFilters, keys: readonly FilterKey[], signal?: AbortSignal) =>
  api.post('/module/filters', filters, { schema: filterOptionsSchema, query: { keys: keys.join(',') }, signal });
