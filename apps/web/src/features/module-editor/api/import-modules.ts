import type { z } from 'zod';
import type { importModulesResponseSchema, WorkingModule } from '@bo/shared/working-area';
import { api } from '@/lib/api-client';

type ImportModulesResponse = z.infer<typeof importModulesResponseSchema>;

export interface ImportItem {
  moduleName?: string;
  monthId: string;
  macroFamily?: string;
  brand?: string;
  collection?: string;
}

/**
 * POST /api/module/importModules: modules by key, or every module of a macro family in a month.
 * Like getWorkingModules, the (possibly large) answer is only checked for its outer shape: the
 * server validates it against `importModulesResponseSchema` already.
 */
export async function importModules(items: ImportItem[]): Promise<ImportModulesResponse> {
  const answer = await api.post<ImportModulesResponse>('/module/importModules', items);
  if (!answer || !Array.isArray(answer.moduleDtoList) || !Array.isArray(answer.notFound) || answer.moduleDtoList.some((m: WorkingModule) => !Array.isArray(m?.productDtoList))) {
    throw new Error('Unexpected answer from /module/importModules');
  }
  return answer;
}
