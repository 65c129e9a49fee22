import type { ModuleKey } from '@bo/shared/modules';
import { newnessResponseSchema } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/module/filteredDetailsLego: SKUs the product data flags as new. */
export function getNewnessLego(moduleDtoList: ModuleKey[], flagNew = true) {
  return api.post('/module/filteredDetailsLego', { moduleDtoList, flagNew }, { schema: newnessResponseSchema });
}
