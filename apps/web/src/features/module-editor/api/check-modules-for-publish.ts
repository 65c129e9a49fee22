import { moduleCheckForPublishAnswerSchema, type ModuleCheckForPublish } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /api/module/checkForPublish: the modules the planning system would refuse, with their reasons (nothing is sent). */
export function checkModulesForPublish(items: ModuleCheckForPublish) {
  return api.post('/module/checkForPublish', items, { schema: moduleCheckForPublishAnswerSchema, alertOnError: false });
}
