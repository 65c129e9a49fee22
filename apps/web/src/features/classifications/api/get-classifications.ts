import { z } from 'zod';
import { classificationSchema } from '@bo/shared/classifications';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /classification/all */
export const classificationsQueryOptions = () =>
  queryOptions({ queryKey: ['classifications'], queryFn: () => api.get('/classification/all', { schema: z.array(classificationSchema) }) });

export const useClassifications = (enabled: boolean) => useQuery({ ...classificationsQueryOptions(), enabled });
