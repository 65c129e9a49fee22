import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clusterPendingPageSchema, modulePendingPageSchema, type PendingAreaRequest, type PendingView } from '@bo/shared/pending-area';
import { api } from '@/lib/api-client';
import { useLiveInvalidate } from '@/components/live/use-live-invalidate';
import { batchTouches } from '@/lib/live/live-changes';
import { withLiveLocks } from '@/lib/live/live-locks';
import { toPendingPage, type PendingPage } from '../logic/pending-rows';

/** POST /module/pendingArea, /cluster/pendingArea: one page of pending items; 413 past the limit, 403 without access. */
export async function searchPendingItems(view: PendingView, body: PendingAreaRequest, signal?: AbortSignal): Promise<PendingPage> {
  const options = { signal, alertOnError: false };
  return view === 'module'
    ? toPendingPage(await api.post('/module/pendingArea', body, { ...options, schema: modulePendingPageSchema }))
    : toPendingPage(await api.post('/cluster/pendingArea', body, { ...options, schema: clusterPendingPageSchema }));
}

/** The searched filters' page `pageIndex`; nothing before the first Search (`body` null); `run` repeats a search. */
export function usePendingSearch(view: PendingView, body: PendingAreaRequest | null, run: number) {
  // Live (issue 36): a change to an item of this view and the searched brands reads the page again in place (same page).
  useLiveInvalidate(
    (batch) => (body && batchTouches(batch, { kind: view, brands: body.brandCode ?? null }) ? [{ queryKey: ['pending-area', 'search', view] }] : []),
    (holders, queryClient) => {
      queryClient.setQueriesData<PendingPage>({ queryKey: ['pending-area', 'search', view] }, (page) => {
        if (!page) return page;
        const items = withLiveLocks(page.items, view, (i) => i.name, holders);
        return items === page.items ? page : { ...page, items };
      });
    },
  );
  return useQuery({
    queryKey: ['pending-area', 'search', view, body, run],
    queryFn: ({ signal }) => searchPendingItems(view, body!, signal),
    enabled: body !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
