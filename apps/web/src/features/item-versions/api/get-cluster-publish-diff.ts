import { z } from 'zod';
import { clusterPublishDiffSchema, type ClusterPublishDiffRequest } from '@bo/shared/item-versions';
import { api } from '@/lib/api-client';

/** POST /api/cluster/publishDiff: what publishing would change (stores, modules, SKUs per store) against the last published version and the previous month's. */
export function getClusterPublishDiff(items: ClusterPublishDiffRequest, signal?: AbortSignal) {
  return api.post('/cluster/publishDiff', items, { schema: z.array(clusterPublishDiffSchema), signal, alertOnError: false });
}
