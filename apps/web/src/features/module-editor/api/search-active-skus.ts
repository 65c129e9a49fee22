import { activeSkuSearchResponseSchema, type ActiveSkuSearch } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/product/filtered: the Active SKUs search. 413 is shown by the panel. */
export function searchActiveSkus(search: ActiveSkuSearch) {
  return api.post('/product/filtered', search, { schema: activeSkuSearchResponseSchema, alertOnError: false });
}
