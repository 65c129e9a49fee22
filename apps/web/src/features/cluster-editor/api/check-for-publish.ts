import { checkForPublishAnswerSchema, type ClusterSave } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/checkForPublish: identical clusters of the same month and brand. */
export function checkForPublish(list: readonly ClusterSave[]) {
  return api.post('/cluster/checkForPublish', list, { schema: checkForPublishAnswerSchema, alertOnError: false });
}
