import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { discoPageSchema, type DiscoListRequest, type DiscoPage, type DiscoView } from '@bo/shared/disco-area';
import { api } from '@/lib/api-client';

const PATHS: Record<DiscoView, string> = { disco: '/sku/skuDiscoInfo', removed: '/sku/skuDeletedInfo' };

/** POST /sku/skuDiscoInfo, /sku/skuDeletedInfo: one page of the view's rows (errors: the page's error popup). */
export function searchDisco(view: DiscoView, body: DiscoListRequest, signal?: AbortSignal): Promise<DiscoPage> {
  return api.post(PATHS[view], body, { schema: discoPageSchema, signal, alertOnError: false });
}

export const DISCO_SEARCH_KEY = ['disco-area', 'search'] as const;

/** The searched filters' page; nothing before the first Search (`body` null); `run` repeats a search. */
export const useDiscoSearch = (view: DiscoView, body: DiscoListRequest | null, run: number) =>
  useQuery({
    queryKey: [...DISCO_SEARCH_KEY, view, body, run],
    queryFn: ({ signal }) => searchDisco(view, body!, signal),
    enabled: body !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
