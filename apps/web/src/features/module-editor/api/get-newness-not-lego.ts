import type { ModuleKey } from '@bo/shared/modules';
import { newnessResponseSchema } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/module/filteredDetailsNotLego: SKUs that entered the modules in currentMonthId. */
export function getNewnessNotLego(moduleDtoList: ModuleKey[], currentMonthId: string) {
  return api.post('/module/filteredDetailsNotLego', { moduleDtoList, currentMonthId }, { schema: newnessResponseSchema });
}
