import { clientConfigSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_FRONT_OFFICE_URL } from '../config/app';
import { api } from './api-client';

/** GET /config: settings the server owns (the front-office URL from FRONT_OFFICE_URL). */
export function clientConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: () => api.get('/config', { schema: clientConfigSchema, alertOnError: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useFrontOfficeUrl(): string {
  return useQuery(clientConfigQueryOptions()).data?.frontOfficeUrl ?? DEFAULT_FRONT_OFFICE_URL;
}
