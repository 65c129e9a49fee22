import { useQuery } from '@tanstack/react-query';
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

/** The publish diff shown before a publish: read each time (no cache), no retry. */
export const useModulePublishDiff = (items: ModulePublishDiffRequest) =>
  useQuery({
    queryKey: ['item-versions', 'module-publish-diff', items],
    queryFn: ({ signal }) => getModulePublishDiff(items, signal),
    retry: false,
    gcTime: 0,
    staleTime: 0,
  });
