import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { discoPageSchema, type DiscoListRequest, type DiscoPage, type DiscoView } from '@bo/shared/disco-area';
import { api } from '@/lib/api-client';
import { useLiveInvalidate } from '@/components/live/use-live-invalidate';
import { batchTouches } from '@/lib/live/live-changes';
import { withLiveLocks } from '@/lib/live/live-locks';

const PATHS: Record<DiscoView, string> = { disco: '/sku/skuDiscoInfo', removed: '/sku/skuDeletedInfo' };

/** POST /sku/skuDiscoInfo, /sku/skuDeletedInfo: one page of the view's rows (errors: the page's error popup). */
export function searchDisco(view: DiscoView, body: DiscoListRequest, signal?: AbortSignal): Promise<DiscoPage> {
  return api.post(PATHS[view], body, { schema: discoPageSchema, signal, alertOnError: false });
}

export const DISCO_SEARCH_KEY = ['disco-area', 'search'] as const;

/** The searched filters' page; nothing before the first Search (`body` null); `run` repeats a search. */
export function useDiscoSearch(view: DiscoView, body: DiscoListRequest | null, run: number) {
  // Live (issue 36): a change to a module (its lock, its lines) reads the page again in place (same page, same checks).
  useLiveInvalidate(
    (batch) => (body && batchTouches(batch, { kind: 'module' }) ? [{ queryKey: [...DISCO_SEARCH_KEY, view] }] : []),
    (holders, queryClient) => {
      queryClient.setQueriesData<DiscoPage>({ queryKey: [...DISCO_SEARCH_KEY, view] }, (page) => {
        if (!page) return page;
        const rows = withLiveLocks(page.skuDiscoTypeDtoList, 'module', (r) => r.moduleName, holders);
        return rows === page.skuDiscoTypeDtoList ? page : { ...page, skuDiscoTypeDtoList: rows };
      });
    },
  );
  return useQuery({
    queryKey: [...DISCO_SEARCH_KEY, view, body, run],
    queryFn: ({ signal }) => searchDisco(view, body!, signal),
    enabled: body !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
