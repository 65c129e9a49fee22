import { useQueryClient, type QueryClient, type QueryFilters } from '@tanstack/react-query';
import type { ChangeBatch } from '@/lib/live/live-changes';
import { useLiveChanges } from './use-live';

/**
 * Live lists (issue 36): after each batch of changes (use-live.ts `useLiveChanges`, ~200 ms), the screen names
 * the queries that may show a changed item (`select`), and those that are on screen refetch. A refetch keeps
 * the screen's own state (selection, page, sort, filters: they are not in the query) and shows the new answer
 * in place (the lists keep the previous one meanwhile). `patch`, when given, first writes into the cached answers
 * what the events themselves say (lib/live/live-locks.ts: who holds each lock), so that shows before the refetch
 * answers.
 */
export function useLiveInvalidate(select: (batch: ChangeBatch) => readonly QueryFilters[], patch?: (batch: ChangeBatch, queryClient: QueryClient) => void): void {
  const queryClient = useQueryClient();
  useLiveChanges((batch) => {
    patch?.(batch, queryClient);
    for (const filters of select(batch)) void queryClient.invalidateQueries(filters);
  });
}
