import { clusterSaveAnswerSchema, type ClusterSave } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/save?onlyDescription=: errorsMap / unauthorizedList entries mean nothing was saved. */
export function saveClusters(list: readonly ClusterSave[], onlyDescription = false) {
  return api.post('/cluster/save', list, { schema: clusterSaveAnswerSchema, query: { onlyDescription }, alertOnError: false });
}
