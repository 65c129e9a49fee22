import { copyModulesResponseSchema, type CopyModulesRequest } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /api/module/copyCompositions: waits for the copy job (or answers its id while it still runs). */
export function copyModules(request: CopyModulesRequest) {
  return api.post('/module/copyCompositions', request, { schema: copyModulesResponseSchema, alertOnError: false });
}
