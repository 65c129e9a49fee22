import { useQuery, type QueryClient, type QueryFilters } from '@tanstack/react-query';
import { batchTouches, type ChangeBatch } from '@/lib/live/live-changes';
import { withLiveLocks, type LockHolders } from '@/lib/live/live-locks';
import { useLiveInvalidate } from '@/components/live/use-live-invalidate';
import { badgeCountsQueryOptions } from '../api/get-badge-counts';
import { pendingAlertsQueryOptions } from '../api/get-pending-alerts';
import type { ClusterListItem, MacroFamilyGroup } from '@bo/shared/search';
import { ApiError } from '@/lib/api-error';
import { HOME_RESULTS_KEY, homeResultsQueryOptions } from '../api/home-results';
import { toFilters, type HomeSelection } from '../logic/home-selection';

// Stable empties: the screen compares lists by identity (selections and column filters reset on change).
const NO_FAMILIES: MacroFamilyGroup[] = [];
const NO_CLUSTERS: ClusterListItem[] = [];

const isTooMany = (error: unknown) => error instanceof ApiError && error.status === 413;

/**
 * Live lists (issue 36): a change to an item of the searched months and brands refetches the search in place
 * (lock icons, statuses, counts); any change refetches the bells. Selection, sort and the columns' filters are the
 * screen's, so they stay.
 */
export function liveHomeQueries(batch: ChangeBatch, filters: ReturnType<typeof toFilters> | null): QueryFilters[] {
  const out: QueryFilters[] = [{ queryKey: badgeCountsQueryOptions().queryKey }, { queryKey: pendingAlertsQueryOptions().queryKey }];
  if (filters && batchTouches(batch, { monthIds: filters.monthId ?? null, brands: filters.brand ?? null }))
    out.push({ queryKey: HOME_RESULTS_KEY, predicate: (q) => JSON.stringify(q.queryKey[2]) === JSON.stringify(filters) });
  return out;
}

/** The lock icons of every home search in the cache follow the batch's events at once (the refetch confirms them). */
export function patchHomeLocks(holders: LockHolders, queryClient: QueryClient): void {
  const last = (name: string) => ({ queryKey: HOME_RESULTS_KEY, predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey.at(-1) === name });
  queryClient.setQueriesData<MacroFamilyGroup[]>(last('families'), (groups) => {
    if (!groups) return groups;
    let changed = false;
    const out = groups.map((g) => {
      const moduleList = withLiveLocks(g.moduleList, 'module', (m) => m.moduleName, holders);
      if (moduleList === g.moduleList) return g;
      changed = true;
      return { ...g, moduleList };
    });
    return changed ? out : groups;
  });
  queryClient.setQueriesData<ClusterListItem[]>(last('clusters'), (clusters) => clusters && withLiveLocks(clusters, 'cluster', (c) => c.clusterId, holders));
}

/**
 * Runs a home search: the dry counts (fast, shown while the lists load: a big search is announced)
 * and the two lists, in parallel. `run` changes on every Search press, so pressing it again reloads.
 */
export function useHomeSearch(searched: HomeSelection | null, run: number) {
  const filters = searched ? toFilters(searched) : null;
  const enabled = !!filters;
  useLiveInvalidate((batch) => liveHomeQueries(batch, filters), patchHomeLocks);
  const queries = homeResultsQueryOptions(filters, run);
  const moduleCount = useQuery(queries.moduleCount);
  const clusterCount = useQuery(queries.clusterCount);
  const families = useQuery(queries.families);
  const clusters = useQuery(queries.clusters);
  const tooMany = isTooMany(families.error) || isTooMany(clusters.error);
  // First load of this search (no answer yet): the lists wait; a refresh keeps them on screen.
  const loading = enabled && !tooMany && (families.isPending || clusters.isPending);
  const refreshing = enabled && (families.isFetching || clusters.isFetching);
  const failed = !tooMany && (families.isError || clusters.isError);
  return {
    searched: enabled,
    loading,
    refreshing,
    tooMany,
    failed,
    counts: { modules: moduleCount.data?.count ?? null, clusters: clusterCount.data?.count ?? null },
    families: tooMany ? NO_FAMILIES : (families.data ?? NO_FAMILIES),
    clusters: tooMany ? NO_CLUSTERS : (clusters.data ?? NO_CLUSTERS),
  };
}
