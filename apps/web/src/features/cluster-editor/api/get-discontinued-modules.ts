import { useQuery } from '@tanstack/react-query';
import { discontinuedAnswerSchema } from '@bo/shared/cluster-editor';
import type { ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/discontinuedModules */
export function getDiscontinuedModules(keys: readonly ClusterKey[]) {
  return api.post('/cluster/discontinuedModules', keys, { schema: discontinuedAnswerSchema });
}

export function useDiscontinuedModules(keys: readonly ClusterKey[], version: number) {
  return useQuery({ queryKey: ['cluster-editor', 'disco', keys, version], queryFn: () => getDiscontinuedModules(keys), enabled: keys.length > 0 });
}
