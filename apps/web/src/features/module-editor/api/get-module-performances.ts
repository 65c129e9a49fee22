import { performancesResponseSchema, type PerformanceFilters } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/module/modulePerformances */
export function getModulePerformances(moduleDto: { moduleName: string; monthId: string; productDtoList?: { upc: string }[] }, ibicFilters: PerformanceFilters) {
  return api.post('/module/modulePerformances', { moduleDto, ibicFilters }, { schema: performancesResponseSchema, alertOnError: false });
}
