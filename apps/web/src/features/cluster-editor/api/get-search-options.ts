import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { brandSchema, collectionSchema, countrySchema } from '@bo/shared/reference-data';
import { api } from '@/lib/api-client';

const monthSchema = z.object({ monthId: z.string(), open: z.boolean() });

/** The module search panel's options: GET /api/brand/all, /api/collection/all, /api/country/all, /api/month/all. */
export function useSearchOptions() {
  return useQuery({
    queryKey: ['cluster-editor', 'search-options'],
    queryFn: async () => {
      const [brands, collections, countries, months] = await Promise.all([
        api.get('/brand/all', { schema: z.array(brandSchema) }),
        api.get('/collection/all', { schema: z.array(collectionSchema) }),
        api.get('/country/all', { schema: z.array(countrySchema) }),
        api.get('/month/all', { schema: z.array(monthSchema) }),
      ]);
      return { brands, collections, countries, months };
    },
    staleTime: 5 * 60_000,
  });
}
