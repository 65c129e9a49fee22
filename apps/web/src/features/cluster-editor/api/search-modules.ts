import { moduleSearchAnswerSchema, type ModuleSearchRequest } from '@bo/shared/cluster-editor';
import { api } from '@/lib/api-client';

/** POST /api/cluster/moduleSearch */
export function searchModules(request: ModuleSearchRequest) {
  return api.post('/cluster/moduleSearch', request, { schema: moduleSearchAnswerSchema, alertOnError: false });
}
