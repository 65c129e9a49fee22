import { type Country, countrySchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /country/all: the countries a new user may be given. */
export function getCountries(): Promise<Country[]> {
  return api.get('/country/all', { schema: z.array(countrySchema) });
}

export function useCountries() {
  // Reference data changes rarely: one load per session is enough.
  return useQuery(queryOptions({ queryKey: ['reference-data', 'country/all'], queryFn: getCountries, staleTime: 10 * 60_000 }));
}
