import { useQuery } from '@tanstack/react-query';
import { pendingFilterOptionsSchema, type PendingFilterOptions, type PendingView } from '@bo/shared/pending-area';
import { api } from '@/lib/api-client';

/** POST /cluster/pendingAreaInitialFilters: the four filters' values among the caller's pending items of the view. */
export function getPendingFilters(view: PendingView, signal?: AbortSignal): Promise<PendingFilterOptions> {
  // A 403 is the page's own message (no access), not an alert.
  return api.post('/cluster/pendingAreaInitialFilters', { viewType: view }, { schema: pendingFilterOptionsSchema, signal, alertOnError: false });
}

/** `enabled` false for a caller the server would refuse (the page shows its no-access text without asking). */
export const usePendingFilters = (view: PendingView, enabled = true) =>
  useQuery({ queryKey: ['pending-area', 'filters', view], queryFn: ({ signal }) => getPendingFilters(view, signal), retry: false, enabled });
