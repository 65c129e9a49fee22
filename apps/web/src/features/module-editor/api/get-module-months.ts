import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /api/module/{moduleName}/months?monthId=: the open months the module may be copied to. */
export function getModuleMonths(moduleName: string, monthId: string) {
  return api.get(`/module/${encodeURIComponent(moduleName)}/months`, { query: { monthId }, schema: z.array(z.string()), alertOnError: false });
}
