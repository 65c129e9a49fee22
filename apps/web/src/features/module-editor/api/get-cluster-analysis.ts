import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clusterAnalysisResponseSchema } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

export interface AnalysisModule {
  moduleName: string;
  monthId: string;
  productDtoList: { upc: string; mustHave: boolean; moduleCompositionStatus: string }[];
}

/** POST /api/module/clusterAnalysis: the clusters of the page's modules, with the compositions as edited. */
export function getClusterAnalysis(modules: AnalysisModule[], signal?: AbortSignal) {
  return api.post('/module/clusterAnalysis', { modules }, { schema: clusterAnalysisResponseSchema, alertOnError: false, ...(signal ? { signal } : {}) });
}

/** The analysis of the page's (debounced) modules; the last answer stays while the next loads. */
export const useClusterAnalysis = (modules: AnalysisModule[]) =>
  useQuery({
    queryKey: ['cluster-analysis', modules],
    enabled: modules.length > 0,
    queryFn: ({ signal }) => getClusterAnalysis(modules, signal),
    placeholderData: keepPreviousData,
  });
