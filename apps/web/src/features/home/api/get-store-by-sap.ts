import { useQuery } from '@tanstack/react-query';
import { storeLookupSchema } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** GET /store/bySap/:code: the store of a SAP code (404 when none). */
export const getStoreBySap = (codiceStoreSap: string, signal?: AbortSignal) =>
  api.get(`/store/bySap/${encodeURIComponent(codiceStoreSap)}`, { schema: storeLookupSchema, signal, alertOnError: false });

/** The store of a (debounced) SAP code; nothing for an empty code. */
export const useStoreBySap = (code: string) =>
  useQuery({
    queryKey: ['home', 'storeBySap', code],
    queryFn: ({ signal }) => getStoreBySap(code, signal),
    enabled: code.length > 0,
    retry: false,
    staleTime: 60_000,
  });
