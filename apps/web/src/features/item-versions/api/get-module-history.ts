import { historyPageSchema } from '@bo/shared/item-versions';
import type { ModuleKey } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** GET /api/module/history: one page of the module's versions, newest first (view right on the module). */
export function getModuleHistory(key: ModuleKey, page: number, signal?: AbortSignal) {
  return api.get('/module/history', { query: { moduleName: key.moduleName, monthId: key.monthId, page }, schema: historyPageSchema, signal, alertOnError: false });
}
