import type { ModuleKey } from '@bo/shared/modules';
import type { PerformanceFilters, WorkingModule } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

/**
 * POST /api/module/modules: the page's modules with their SKUs.
 *
 * The answer is not run through the zod schema: a page of 30 × 100 SKUs is ~2 MB and parsing it
 * cost hundreds of milliseconds on the main thread before the first card. The server already
 * validates it against the same shared schema (`modulesResponseSchema`) on the way out; here only
 * its outer shape is checked.
 */
export async function getWorkingModules(keys: ModuleKey[], ibicFilters?: PerformanceFilters): Promise<WorkingModule[]> {
  const answer = await api.post<unknown>('/module/modules', { moduleDtoList: keys, ibicFilters }, { alertOnError: false });
  if (!Array.isArray(answer) || answer.some((m) => typeof m !== 'object' || m === null || !Array.isArray((m as WorkingModule).productDtoList))) {
    throw new Error('Unexpected answer from /module/modules');
  }
  return answer as WorkingModule[];
}
