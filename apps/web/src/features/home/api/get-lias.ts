import { z } from 'zod';
import { liaSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /lia/all */
export const liasQueryOptions = () =>
  queryOptions({ queryKey: ['reference', 'lias'], queryFn: () => api.get('/lia/all', { schema: z.array(liaSchema) }), staleTime: 5 * 60_000 });

export const useLias = (enabled = true) => useQuery({ ...liasQueryOptions(), enabled });
