import { z } from 'zod';
import { macroFamilySchema } from '@bo/shared/creation';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /module/macroFamily/all: every family, special ones first. */
export const macroFamiliesQueryOptions = () =>
  queryOptions({
    queryKey: ['home', 'macroFamilies'],
    queryFn: () => api.get('/module/macroFamily/all', { schema: z.array(macroFamilySchema) }),
    staleTime: 60_000,
  });

export const useMacroFamilies = (enabled = true) => useQuery({ ...macroFamiliesQueryOptions(), enabled });
