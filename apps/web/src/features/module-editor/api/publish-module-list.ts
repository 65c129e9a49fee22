import { z } from 'zod';
import { api } from '@/lib/api-client';

const answer = z.object({ errors: z.array(z.string()).optional(), message: z.string().optional(), jobId: z.number().optional() });

/** POST /api/module/publishList: all or nothing; `errors` when refused. */
export function publishModuleList(bodies: object[]) {
  return api.post('/module/publishList', bodies, { schema: answer, alertOnError: false });
}
