import { activeSkuSearchResponseSchema } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/**
 * POST /api/product/filtered for one UPC of the module's brand and collection: the SKU's tile data when a restored
 * version holds a SKU the module's lines no longer have (the search matches UPCs by part: the caller keeps the exact one).
 */
export function findSku(q: { upc: string; monthId: string; brand: string; collection: string }, signal?: AbortSignal) {
  return api.post('/product/filtered', { upc: q.upc, monthId: q.monthId, brand: [q.brand], collection: [q.collection] }, { schema: activeSkuSearchResponseSchema, signal, alertOnError: false });
}
