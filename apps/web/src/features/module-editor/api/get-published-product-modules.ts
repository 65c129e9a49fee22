import { publishedProductResponseSchema } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/module/publishedProductModule: the modules of the month where the SKU is published. */
export function getPublishedProductModules(q: { monthId: string; model: string; color: string; size: string; materialCode: string; skuCode: string }) {
  return api.post('/module/publishedProductModule', q, { schema: publishedProductResponseSchema, alertOnError: false });
}
