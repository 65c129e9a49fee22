import { pendingAlertsSchema } from '@bo/shared/badges';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /module/countPendingAreaAlerts: the Pending Area bell. */
export const pendingAlertsQueryOptions = () =>
  queryOptions({
    queryKey: ['home', 'pendingAlerts'],
    queryFn: () => api.get('/module/countPendingAreaAlerts', { schema: pendingAlertsSchema, alertOnError: false }),
    staleTime: 60_000,
  });

export const usePendingAlerts = () => useQuery(pendingAlertsQueryOptions());
