import { publishAnswerSchema, type ClusterSave } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/**
 * POST /api/cluster/publish: the clusters without blockers are saved (the body's edits) and go in one publish
 * job; `clusters` answers each one published or not, with its reasons (refused, 422, when none can go).
 */
export function publishClusters(list: readonly ClusterSave[]) {
  return api.post('/cluster/publish', list, { schema: publishAnswerSchema, alertOnError: false });
}
