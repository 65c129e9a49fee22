import { clientConfigSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** GET /config: settings the server owns (the front-office URL from FRONT_OFFICE_URL). */
export function clientConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: () => api.get('/config', { schema: clientConfigSchema, alertOnError: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Where the separate front office is (contract §1), or null: while the answer is loading, when it
 * failed, and when the server has no FRONT_OFFICE_URL. The menu shows its Frontoffice entry only for
 * a URL: a guessed one would lead to a 404.
 */
export function useFrontOfficeUrl(): string | null {
  return useQuery(clientConfigQueryOptions()).data?.frontOfficeUrl ?? null;
}
