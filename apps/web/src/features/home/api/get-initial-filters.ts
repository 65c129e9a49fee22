import { filterOptionsSchema } from '@bo/shared/search';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /cluster/initialFilters: every month, and the brands, zones … the user holds grants for. */
export const getInitialFilters = () => api.get('/cluster/initialFilters', { schema: filterOptionsSchema });

export const initialFiltersQueryOptions = () =>
  queryOptions({ queryKey: ['home', 'initialFilters'], queryFn: getInitialFilters, staleTime: 5 * 60_000 });

/** `enabled: false` (a closed popup) reads only what is already cached: the call waits until it is needed. */
export const useInitialFilters = (enabled = true) => useQuery({ ...initialFiltersQueryOptions(), enabled });
