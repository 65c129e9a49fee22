import { queryOptions } from '@tanstack/react-query';
import type { SearchFilters } from '@bo/shared/search';
import { countClusters } from './count-clusters';
import { countModules } from './count-modules';
import { searchClusters } from './search-clusters';
import { searchMacroFamilies } from './search-macro-families';

/** Every query of a home search starts with this key (a save, a lock or a deletion invalidates them all). */
export const HOME_RESULTS_KEY = ['home', 'results'] as const;

/**
 * The four queries of one home search (filters, and `run` which changes on every Search press): the dry counts
 * and the two lists. Each is read once (a new search or the live batches read again), never retried.
 */
export function homeResultsQueryOptions(filters: SearchFilters | null, run: number) {
  const key = [...HOME_RESULTS_KEY, filters, run] as const;
  const common = { enabled: !!filters, retry: false as const, staleTime: Number.POSITIVE_INFINITY, gcTime: 5 * 60_000 };
  return {
    moduleCount: queryOptions({ queryKey: [...key, 'moduleCount'], queryFn: ({ signal }) => countModules(filters!, signal), ...common }),
    clusterCount: queryOptions({ queryKey: [...key, 'clusterCount'], queryFn: ({ signal }) => countClusters(filters!, signal), ...common }),
    families: queryOptions({ queryKey: [...key, 'families'], queryFn: ({ signal }) => searchMacroFamilies(filters!, signal), ...common }),
    clusters: queryOptions({ queryKey: [...key, 'clusters'], queryFn: ({ signal }) => searchClusters(filters!, signal), ...common }),
  };
}
