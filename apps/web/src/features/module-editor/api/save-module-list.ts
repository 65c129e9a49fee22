import { moduleSaveListAnswerSchema, type ModuleSaveBody } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /api/module/saveList: [] when every module was saved, else the messages (and nothing saved). */
export function saveModuleList(bodies: readonly ModuleSaveBody[]) {
  return api.post('/module/saveList', bodies, { schema: moduleSaveListAnswerSchema, alertOnError: false });
}
