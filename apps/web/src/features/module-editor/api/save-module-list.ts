import { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /api/module/saveList: [] when every module was saved, else the messages (and nothing saved). */
export function saveModuleList(bodies: object[]) {
  return api.post('/module/saveList', bodies, { schema: z.array(z.string()), alertOnError: false });
}
