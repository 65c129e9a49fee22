import type { ClusterKey } from '@bo/shared/clusters';
import { historyPageSchema } from '@bo/shared/item-versions';
import { api } from '@/lib/api-client';

/** GET /api/cluster/history: one page of the cluster's versions, newest first (view right on the cluster). */
export function getClusterHistory(key: ClusterKey, page: number, signal?: AbortSignal) {
  return api.get('/cluster/history', { query: { clusterId: key.clusterId, monthId: key.monthId, page }, schema: historyPageSchema, signal, alertOnError: false });
}
