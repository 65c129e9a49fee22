import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { clusterPublishDiffSchema, type ClusterPublishDiffRequest } from '@bo/shared/item-versions';
import { api } from '@/lib/api-client';

/** POST /api/cluster/publishDiff: what publishing would change (stores, modules, SKUs per store) against the last published version and the previous month's. */
export function getClusterPublishDiff(items: ClusterPublishDiffRequest, signal?: AbortSignal) {
  return api.post('/cluster/publishDiff', items, { schema: z.array(clusterPublishDiffSchema), signal, alertOnError: false });
}

/** The publish diff shown before a publish: read each time (no cache), no retry. */
export const useClusterPublishDiff = (items: ClusterPublishDiffRequest) =>
  useQuery({
    queryKey: ['item-versions', 'cluster-publish-diff', items],
    queryFn: ({ signal }) => getClusterPublishDiff(items, signal),
    retry: false,
    gcTime: 0,
    staleTime: 0,
  });
