import { clusterMonthsAnswerSchema } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** GET /api/cluster/:clusterId/months?monthId=: the open months the cluster may be copied to. */
export function getClusterMonths(clusterId: string, monthId: string) {
  return api.get(`/cluster/${encodeURIComponent(clusterId)}/months`, { query: { monthId }, schema: clusterMonthsAnswerSchema, alertOnError: false });
}
