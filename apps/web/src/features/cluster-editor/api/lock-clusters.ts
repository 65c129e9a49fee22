import { clusterLockAnswerSchema, type ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/lock: takes or renews the caller's locks (acquired: false = read-only). */
export function lockClusters(keys: readonly ClusterKey[]) {
  return api.post('/cluster/lock', keys, { schema: clusterLockAnswerSchema, alertOnError: false });
}
