import { z } from 'zod';
import { clusterDtoSchema, type ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/clusterDetails: the clusters the caller may view, with their lock state. */
export function getClusterDetails(keys: readonly ClusterKey[]) {
  return api.post('/cluster/clusterDetails', keys, { schema: z.array(clusterDtoSchema) });
}
