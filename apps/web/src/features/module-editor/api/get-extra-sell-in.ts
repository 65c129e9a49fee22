import { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /api/module/extraSellIn → a number */
export function getExtraSellIn(q: { moduleName: string; monthId: string; materialCode: string; skuCode: string }) {
  return api.post('/module/extraSellIn', q, { schema: z.number(), alertOnError: false });
}
