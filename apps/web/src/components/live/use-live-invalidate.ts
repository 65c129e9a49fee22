import { useQueryClient, type QueryFilters } from '@tanstack/react-query';
import type { ChangeBatch } from '@/lib/live/live-changes';
import { useLiveChanges } from './use-live';

/**
 * Live lists (issue 36): after each batch of changes (use-live.ts `useLiveChanges`, ~200 ms), the screen names
 * the queries that may show a changed item (`select`), and those that are on screen refetch. A refetch keeps
 * the screen's own state (selection, page, sort, filters: they are not in the query) and shows the new answer
 * in place (the lists keep the previous one meanwhile).
 */
export function useLiveInvalidate(select: (batch: ChangeBatch) => readonly QueryFilters[]): void {
  const queryClient = useQueryClient();
  useLiveChanges((batch) => {
    for (const filters of select(batch)) void queryClient.invalidateQueries(filters);
  });
}
