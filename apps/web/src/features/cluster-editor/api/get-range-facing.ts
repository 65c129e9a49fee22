import { useQuery } from '@tanstack/react-query';
import { rangeFacingAnswerSchema } from '@bo/shared/cluster-editor';
import type { ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/rangeFacingDto */
export function getRangeFacing(keys: readonly ClusterKey[]) {
  return api.post('/cluster/rangeFacingDto', keys, { schema: rangeFacingAnswerSchema });
}

export function useRangeFacing(keys: readonly ClusterKey[]) {
  return useQuery({ queryKey: ['cluster-editor', 'rangeFacing', keys], queryFn: () => getRangeFacing(keys), enabled: keys.length > 0 });
}
