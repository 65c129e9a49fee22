import { useQuery } from '@tanstack/react-query';
import { statisticClusterListSchema, type StatisticCluster, type StatisticSearchRequest } from '@bo/shared/statistics';
import { api } from '@/lib/api-client';

/** POST /cluster/statistic: the clusters whose shares lie in the moved sliders' ranges (413 past the limit: the page's own text). */
export function searchStatisticClusters(body: StatisticSearchRequest, signal?: AbortSignal): Promise<StatisticCluster[]> {
  return api.post('/cluster/statistic', body, { schema: statisticClusterListSchema, signal, alertOnError: false });
}

/** The searched body's clusters; nothing before the first Search (`body` null); `run` repeats a search. */
export const useStatisticSearch = (body: StatisticSearchRequest | null, run: number) =>
  useQuery({
    queryKey: ['statistics', 'search', body, run],
    queryFn: ({ signal }) => searchStatisticClusters(body!, signal),
    enabled: body !== null,
    retry: false,
  });
