import { publishAnswerSchema, type ClusterSave } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/publish: saves the body's edits, then starts one publish job. */
export function publishClusters(list: readonly ClusterSave[]) {
  return api.post('/cluster/publish', list, { schema: publishAnswerSchema, alertOnError: false });
}
