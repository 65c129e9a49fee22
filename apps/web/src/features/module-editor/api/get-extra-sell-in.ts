import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /api/module/extraSellIn → a number */
export function getExtraSellIn(q: { moduleName: string; monthId: string; materialCode: string; skuCode: string }) {
  return api.post('/module/extraSellIn', q, { schema: z.number(), alertOnError: false });
}

export type ExtraSellInQuery = Parameters<typeof getExtraSellIn>[0];

/** The SKU's extra sell-in in the module; nothing without a SKU (`q` null). */
export const useExtraSellIn = (q: ExtraSellInQuery | null, upc: string | undefined) =>
  useQuery({ queryKey: ['extra-sell-in', q?.moduleName, q?.monthId, upc], enabled: !!q, queryFn: () => getExtraSellIn(q!) });
