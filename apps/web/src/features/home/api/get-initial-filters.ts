import { filterOptionsSchema } from '@bo/shared/search';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /cluster/initialFilters: every month, and the brands, zones … the user holds grants for. */
export const getInitialFilters = () => api.get('/cluster/initialFilters', { schema: filterOptionsSchema });

export const initialFiltersQueryOptions = () =>
  queryOptions({ queryKey: ['home', 'initialFilters'], queryFn: getInitialFilters, staleTime: 5 * 60_000 });

export const useInitialFilters = () => useQuery(initialFiltersQueryOptions());
