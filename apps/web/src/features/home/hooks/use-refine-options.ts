import { useQuery } from '@tanstack/react-query';
import type { FilterOption } from '@bo/shared/search';
import { useInitialFilters } from '../api/get-initial-filters';
import { refineOptionsQueryOptions } from '../api/refine-options';
import { mergeOptions, REFINE_KEYS, toFilters, type HomeSelection, type RefineKey } from '../logic/home-selection';

/**
 * The options of step 2 once a month is chosen: each filter offers the values found among the modules
 * and clusters that match the month and the *other* filters, so the lists narrow as the selection grows.
 */
export function useRefineOptions(selection: HomeSelection) {
  const initial = useInitialFilters();
  const filters = toFilters(selection);
  const enabled = !!selection.monthId;
  const options = useQuery(refineOptionsQueryOptions(filters, enabled));
  const byKey = {} as Record<RefineKey, FilterOption[]>;
  for (const key of REFINE_KEYS) {
    byKey[key] = enabled ? mergeOptions(key, options.data ?? [], selection[key], initial.data) : [];
  }
  return { months: initial.data?.monthId ?? [], initial: initial.data, options: byKey, loading: options.isFetching, initialLoading: initial.isLoading };
}
