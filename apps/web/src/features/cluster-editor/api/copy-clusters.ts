import { clusterCopyAnswerSchema, type ClusterCopyRequest } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/copyCompositions: a copy job the call waits for (up to 60 s). */
export function copyClusters(request: ClusterCopyRequest) {
  return api.post('/cluster/copyCompositions', request, { schema: clusterCopyAnswerSchema, alertOnError: false });
}
