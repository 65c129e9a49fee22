import { monthSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /month/all: every month with its state (open or closed: closing a release closes its months). */
export const getMonths = () => api.get('/month/all', { schema: z.array(monthSchema) });

export const monthsQueryOptions = () => queryOptions({ queryKey: ['home', 'months'], queryFn: getMonths, staleTime: 60_000 });

export const useHomeMonths = () => useQuery(monthsQueryOptions());
