import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { discoFilterOptionsSchema, type DiscoFilterOptions, type DiscoFilters, type DiscoView } from '@bo/shared/disco-area';
import { api } from '@/lib/api-client';
import { chosenFilters, hasFilter } from '../logic/disco-rows';

const PATHS: Record<DiscoView, string> = { disco: '/sku/skuDiscoInfoFilters', removed: '/sku/skuDeletedInfoFilters' };

/**
 * The filters' options among the caller's rows of the view: GET before any choice, POST with the chosen
 * filters afterwards (each filter's options narrowed by the others). Errors are the page's (error popup).
 */
export function getDiscoFilters(view: DiscoView, filters: DiscoFilters, signal?: AbortSignal): Promise<DiscoFilterOptions> {
  const options = { schema: discoFilterOptionsSchema, signal, alertOnError: false };
  return hasFilter(filters) ? api.post(PATHS[view], chosenFilters(filters), options) : api.get(PATHS[view], options);
}

/** `enabled` false for a caller the server would refuse (the page shows its no-access text without asking). */
export const useDiscoFilters = (view: DiscoView, filters: DiscoFilters, enabled = true) =>
  useQuery({
    enabled,
    queryKey: ['disco-area', 'filters', view, chosenFilters(filters)],
    queryFn: ({ signal }) => getDiscoFilters(view, filters, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });
