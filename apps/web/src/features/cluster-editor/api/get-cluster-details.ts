import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { clusterDtoSchema, type ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/clusterDetails: the clusters the caller may view, with their lock state. */
export function getClusterDetails(keys: readonly ClusterKey[]) {
  return api.post('/cluster/clusterDetails', keys, { schema: z.array(clusterDtoSchema) });
}

/** The page's clusters, read once per set of keys (`signature` names the set): the page owns them afterwards. */
export const useClusterDetails = (keys: readonly ClusterKey[], signature: string) =>
  useQuery({
    queryKey: ['cluster-editor', 'details', signature],
    queryFn: () => getClusterDetails(keys),
    enabled: keys.length > 0,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
