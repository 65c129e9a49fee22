import { searchCountSchema, type SearchFilters } from '@bo/shared/search';
import { api } from '@/lib/api-client';

/** POST /module/filteredDry: how many modules the search will list (shown while they load). */
export const countModules = (filters: SearchFilters, signal?: AbortSignal) =>
  api.post('/module/filteredDry', filters, { schema: searchCountSchema, signal, alertOnError: false });
