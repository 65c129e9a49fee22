import { publishStartedSchema, type ModuleSaveBody } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /api/module/publish (the composition is saved first when given): answers the job to follow. */
export function publishModule(body: ModuleSaveBody) {
  return api.post('/module/publish', body, { schema: publishStartedSchema, alertOnError: false });
}
