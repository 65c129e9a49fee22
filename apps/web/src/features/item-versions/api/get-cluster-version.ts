import type { ClusterKey } from '@bo/shared/clusters';
import { clusterVersionDetailSchema } from '@bo/shared/item-versions';
import { api } from '@/lib/api-client';

/** GET /api/cluster/history/version/:n: one version of the cluster, with its stores and modules that no longer exist. */
export function getClusterVersion(key: ClusterKey, version: number, signal?: AbortSignal) {
  return api.get(`/cluster/history/version/${version}`, { query: { clusterId: key.clusterId, monthId: key.monthId }, schema: clusterVersionDetailSchema, signal, alertOnError: false });
}
