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
