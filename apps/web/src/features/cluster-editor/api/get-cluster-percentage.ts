import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clusterPercentageAnswerSchema, type ClusterPercentageRequest } from '@bo/shared/cluster-editor';
import { api } from '@/lib/api-client';

/** POST /api/cluster/clusterPercentage: total SKUs and refresh of the compositions as they are on screen. */
export function getClusterPercentage(list: ClusterPercentageRequest) {
  return api.post('/cluster/clusterPercentage', list, { schema: clusterPercentageAnswerSchema, alertOnError: false });
}

export function useClusterPercentage(list: ClusterPercentageRequest) {
  return useQuery({
    queryKey: ['cluster-editor', 'percentage', list],
    queryFn: () => getClusterPercentage(list),
    enabled: list.length > 0,
    placeholderData: keepPreviousData,
  });
}
