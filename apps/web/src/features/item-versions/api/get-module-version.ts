import { moduleVersionDetailSchema } from '@bo/shared/item-versions';
import type { ModuleKey } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** GET /api/module/history/version/:n: one version's composition, with its SKUs that no longer exist or are discontinued now. */
export function getModuleVersion(key: ModuleKey, version: number, signal?: AbortSignal) {
  return api.get(`/module/history/version/${version}`, { query: { moduleName: key.moduleName, monthId: key.monthId }, schema: moduleVersionDetailSchema, signal, alertOnError: false });
}
