import { useQueryClient, type QueryClient, type QueryFilters } from '@tanstack/react-query';
import type { ChangeBatch } from '@/lib/live/live-changes';
import { lockHolders, type LockHolders } from '@/lib/live/live-locks';
import { useLiveChanges } from './use-live';

/**
 * Live lists (issue 36): after each batch of changes (use-live.ts `useLiveChanges`, ~200 ms), the screen names
 * the queries that may show a changed item (`select`), and those that are on screen refetch. A refetch keeps
 * the screen's own state (selection, page, sort, filters: they are not in the query) and shows the new answer
 * in place (the lists keep the previous one meanwhile). `patchLocks`, when given, is first handed who holds the lock
 * of each item the batch's events name (lib/live/live-locks.ts), when they name any, to write into the cached
 * answers: a lock taken or released shows before the refetch answers.
 */
export function useLiveInvalidate(
  select: (batch: ChangeBatch) => readonly QueryFilters[],
  patchLocks?: (holders: LockHolders, queryClient: QueryClient) => void,
): void {
  const queryClient = useQueryClient();
  useLiveChanges((batch) => {
    if (patchLocks) {
      const holders = lockHolders(batch);
      if (holders.size > 0) patchLocks(holders, queryClient);
    }
    for (const filters of select(batch)) void queryClient.invalidateQueries(filters);
  });
}
