import { z } from 'zod';
import type { CheckLegoRequest } from '@bo/shared/reference-data';
import { api } from '@/lib/api-client';

/** POST /month/checkLego: is the month a LEGO month for the brand and collection? */
export const checkLego = (body: CheckLegoRequest, signal?: AbortSignal) =>
  api.post('/month/checkLego', body, { schema: z.boolean(), signal, alertOnError: false });
