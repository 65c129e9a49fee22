import { genericNameAnswerSchema } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** POST /cluster/getGenericName: a free cluster id for brand, collection, channel and countries. */
export const getGenericClusterName = (body: { planningChannel?: string | null; collection: string; brand: string; country: string[] }) =>
  api.post('/cluster/getGenericName', body, { schema: genericNameAnswerSchema, alertOnError: false });
