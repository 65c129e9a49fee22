import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SearchFilters } from '@bo/shared/search';
import { REFINE_KEYS } from '../logic/home-selection';
import { getClusterFilterOptions } from './get-cluster-filter-options';
import { getModuleFilterOptions } from './get-module-filter-options';

/** Step 2's options for the filters chosen so far: the modules' and the clusters' (merged by the hook). */
export const refineOptionsQueryOptions = (filters: SearchFilters, enabled: boolean) =>
  queryOptions({
    queryKey: ['home', 'refineOptions', filters],
    queryFn: async ({ signal }) => {
      const [modules, clusters] = await Promise.all([getModuleFilterOptions(filters, REFINE_KEYS, signal), getClusterFilterOptions(filters, REFINE_KEYS, signal)]);
      return [modules, clusters] as const;
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
