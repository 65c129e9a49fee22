import { monthSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /month/all: every month with its state; the MONTH cells offer the open ones. */
export const getMonths = () => api.get('/month/all', { schema: z.array(monthSchema) });

/** Under ['months']: closing or opening a release invalidates it. */
export const monthsQueryOptions = () => queryOptions({ queryKey: ['months', 'massive-edit'], queryFn: getMonths, staleTime: 60_000 });

export const useMonths = () => useQuery(monthsQueryOptions());
