import { badgeCountsSchema } from '@bo/shared/badges';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /sku/badgeCounts: the DISCO/REMOVED bells. */
export const badgeCountsQueryOptions = () =>
  queryOptions({
    queryKey: ['home', 'badgeCounts'],
    queryFn: () => api.get('/sku/badgeCounts', { schema: badgeCountsSchema, alertOnError: false }),
    staleTime: 60_000,
  });

export const useBadgeCounts = (enabled: boolean) => useQuery({ ...badgeCountsQueryOptions(), enabled });
