import { type Brand, brandSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /brand/all: the brands (code and description) the grants name. */
export function getBrands(): Promise<Brand[]> {
  return api.get('/brand/all', { schema: z.array(brandSchema) });
}

export function useBrands() {
  // Reference data changes rarely: one load per session is enough.
  return useQuery(queryOptions({ queryKey: ['reference-data', 'brand/all'], queryFn: getBrands, staleTime: 10 * 60_000 }));
}
