import { checkForPublishAnswerSchema, type ClusterSave } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/**
 * POST /api/cluster/checkForPublish: identical clusters of the same month and brand, and the clusters that may
 * not be published with their blockers (modules with their own state and SKUs: docs/LIFECYCLE.md "Publish per cluster").
 */
export function checkForPublish(list: readonly ClusterSave[]) {
  return api.post('/cluster/checkForPublish', list, { schema: checkForPublishAnswerSchema, alertOnError: false });
}
