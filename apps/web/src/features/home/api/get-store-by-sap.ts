import { storeLookupSchema } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** GET /store/bySap/:code: the store of a SAP code (404 when none). */
export const getStoreBySap = (codiceStoreSap: string, signal?: AbortSignal) =>
  api.get(`/store/bySap/${encodeURIComponent(codiceStoreSap)}`, { schema: storeLookupSchema, signal, alertOnError: false });
