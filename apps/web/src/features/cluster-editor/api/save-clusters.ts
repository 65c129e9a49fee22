import { clusterSaveAnswerSchema, type ClusterSave } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/**
 * POST /api/cluster/save?onlyDescription=: errorsMap / unauthorizedList entries mean nothing was saved.
 * `revertOf`: the save stores a version restored from the History panel, recorded as a revert of it.
 */
export function saveClusters(list: readonly ClusterSave[], onlyDescription = false, revertOf?: number) {
  return api.post('/cluster/save', list, { schema: clusterSaveAnswerSchema, query: { onlyDescription, revertOf }, alertOnError: false });
}
