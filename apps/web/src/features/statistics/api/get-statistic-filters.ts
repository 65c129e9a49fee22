import { useQuery } from '@tanstack/react-query';
import { statisticFilterOptionsSchema, type StatisticFilterOptions, type StatisticFiltersRequest } from '@bo/shared/statistics';
import { api } from '@/lib/api-client';

/** POST /cluster/statisticFiltersByBrand: per category, the values of the sliders (the month's clusters, brands, collections). */
export function getStatisticFilters(body: StatisticFiltersRequest, signal?: AbortSignal): Promise<StatisticFilterOptions> {
  return api.post('/cluster/statisticFiltersByBrand', body, { schema: statisticFilterOptionsSchema, signal });
}

export const useStatisticFilters = (body: StatisticFiltersRequest | null) =>
  useQuery({
    queryKey: ['statistics', 'filters', body],
    queryFn: ({ signal }) => getStatisticFilters(body!, signal),
    enabled: body !== null,
  });
