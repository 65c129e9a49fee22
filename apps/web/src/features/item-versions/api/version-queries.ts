import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { HistoryPage } from '@bo/shared/item-versions';

/**
 * How one kind of item reads its versions (GET …/history and …/history/version/:n: get-module-history.ts,
 * get-cluster-history.ts and their version files), and the two queries the History panel makes of them.
 */
export interface VersionSource<Detail> {
  kind: 'module' | 'cluster';
  itemKey: string;
  monthId: string;
  getHistory: (page: number, signal: AbortSignal) => Promise<HistoryPage>;
  getVersion: (version: number, signal: AbortSignal) => Promise<Detail>;
}

/** One page of versions: every save adds a version, so the list is read again each time the panel opens. */
export const historyPageQueryOptions = <Detail>(source: VersionSource<Detail>, pageNumber: number) =>
  queryOptions({
    queryKey: ['item-versions', source.kind, source.itemKey, source.monthId, 'page', pageNumber],
    queryFn: ({ signal }) => source.getHistory(pageNumber, signal),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

/** One version (a version never changes); nothing for `n` null. */
export const versionQueryOptions = <Detail>(source: VersionSource<Detail>, n: number | null) =>
  queryOptions({
    queryKey: ['item-versions', source.kind, source.itemKey, source.monthId, 'version', n],
    queryFn: ({ signal }) => source.getVersion(n!, signal),
    enabled: n !== null,
    retry: false,
    staleTime: Infinity,
  });
