import { clusterLockAnswerSchema, type ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /cluster/lock (the editor's own call, docs/statistics.md): takes the cluster's lock before the page opens it. */
export async function lockCluster(key: ClusterKey) {
  const [answer] = await api.post('/cluster/lock', [key], { schema: clusterLockAnswerSchema });
  return answer;
}
