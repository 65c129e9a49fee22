import { useQuery } from '@tanstack/react-query';
import { performancesResponseSchema, type PerformanceFilters } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/** POST /api/module/modulePerformances */
export function getModulePerformances(moduleDto: { moduleName: string; monthId: string; productDtoList?: { upc: string }[] }, ibicFilters: PerformanceFilters) {
  return api.post('/module/modulePerformances', { moduleDto, ibicFilters }, { schema: performancesResponseSchema, alertOnError: false });
}

/** The performances of the module's SKUs under the filters; nothing without a module (`moduleDto` null). */
export const useModulePerformances = (moduleDto: { moduleName: string; monthId: string; productDtoList: { upc: string }[] } | null, ibicFilters: PerformanceFilters) =>
  useQuery({
    queryKey: ['module-performances', moduleDto?.moduleName, moduleDto?.monthId, moduleDto?.productDtoList, ibicFilters],
    enabled: !!moduleDto,
    queryFn: () => getModulePerformances(moduleDto!, ibicFilters),
  });
