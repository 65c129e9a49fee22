import { type StarsZone, starsZoneSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /starsZone: the stars zones the grants name. */
export function getStarsZones(): Promise<StarsZone[]> {
  return api.get('/starsZone', { schema: z.array(starsZoneSchema) });
}

export function useStarsZones() {
  // Reference data changes rarely: one load per session is enough.
  return useQuery(queryOptions({ queryKey: ['reference-data', 'starsZone'], queryFn: getStarsZones, staleTime: 10 * 60_000 }));
}
