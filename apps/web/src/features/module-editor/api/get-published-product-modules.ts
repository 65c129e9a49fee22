import { useQuery } from '@tanstack/react-query';
import { publishedProductResponseSchema } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/module/publishedProductModule: the modules of the month where the SKU is published. */
export function getPublishedProductModules(q: { monthId: string; model: string; color: string; size: string; materialCode: string; skuCode: string }) {
  return api.post('/module/publishedProductModule', q, { schema: publishedProductResponseSchema, alertOnError: false });
}

export type PublishedProductQuery = Parameters<typeof getPublishedProductModules>[0];

/** The modules where the SKU is published that month; nothing without a SKU (`q` null). */
export const usePublishedProductModules = (q: PublishedProductQuery | null, upc: string | undefined) =>
  useQuery({ queryKey: ['published-product', q?.monthId, upc], enabled: !!q, queryFn: () => getPublishedProductModules(q!) });
