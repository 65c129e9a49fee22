import { z } from 'zod';
import { modulePublishDiffSchema, type ModulePublishDiffRequest } from '@bo/shared/item-versions';
import { api } from '@/lib/api-client';

/**
 * POST /api/module/publishDiff: what publishing would change, against the module's last published version and the
 * previous month's published one. With `productDtoList` the page's unsaved composition is compared, else the saved one.
 */
export function getModulePublishDiff(items: ModulePublishDiffRequest, signal?: AbortSignal) {
  return api.post('/module/publishDiff', items, { schema: z.array(modulePublishDiffSchema), signal, alertOnError: false });
}
