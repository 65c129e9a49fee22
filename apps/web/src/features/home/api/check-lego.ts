import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { CheckLegoRequest } from '@bo/shared/reference-data';
import { api } from '@/lib/api-client';

/** POST /month/checkLego: is the month a LEGO month for the brand and collection? */
export const checkLego = (body: CheckLegoRequest, signal?: AbortSignal) =>
  api.post('/month/checkLego', body, { schema: z.boolean(), signal, alertOnError: false });

/** The LEGO lookup of one month, brand and collection; nothing while `enabled` is false. */
export const legoQueryOptions = (q: CheckLegoRequest | null, enabled: boolean) =>
  queryOptions({
    queryKey: ['home', 'lego', q?.monthId, q?.brandCode, q?.collection],
    queryFn: ({ signal }) => checkLego(q!, signal),
    enabled: !!q && enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
