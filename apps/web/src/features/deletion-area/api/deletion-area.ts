import {
  clusterDeletionPageSchema,
  moduleDeletionPageSchema,
  restoreResponseSchema,
  type DeletionMonthStatus,
  type RestoreResponse,
} from '@bo/shared/deletion';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useLiveInvalidate } from '@/components/live/use-live-invalidate';
import { batchTouches } from '@/lib/live/live-changes';
import { type DeletionRow, type DeletionView, toRow } from '../logic/deletion-area';

/** The server's largest page: the page pages its items itself (50 a page), so it reads them all. */
const SERVER_PAGE_SIZE = 500;

/**
 * POST /api/module/deleted or /api/cluster/deleted, every server page, as table rows: every item that has
 * a deletion request and whose overall status is checked. Errors show on the page, not in the alert bar.
 */
export async function getDeletedItems(view: DeletionView, status: readonly DeletionMonthStatus[]): Promise<DeletionRow[]> {
  const rows: DeletionRow[] = [];
  for (let pageNumber = 0; ; pageNumber++) {
    const query = { pageNumber, pageSize: SERVER_PAGE_SIZE };
    const body = { status };
    if (view === 'module') {
      const page = await api.post('/module/deleted', body, { query, schema: moduleDeletionPageSchema, alertOnError: false });
      rows.push(...page.content.map((item) => toRow('module', item)));
      if (pageNumber + 1 >= page.totalPages) return rows;
    } else {
      const page = await api.post('/cluster/deleted', body, { query, schema: clusterDeletionPageSchema, alertOnError: false });
      rows.push(...page.content.map((item) => toRow('cluster', item)));
      if (pageNumber + 1 >= page.totalPages) return rows;
    }
  }
}

const deletedKey = (view: DeletionView, status: readonly DeletionMonthStatus[]) => ['deletion', 'deleted', view, [...status]] as const;

/** The Deletion Area's items; no request while no status is checked (part 2 §5). */
export function useDeletedItems(view: DeletionView, status: readonly DeletionMonthStatus[]) {
  // Live (issue 36): a change to an item of this view (a deletion step, a restore, a lock) reads the list again in place.
  useLiveInvalidate((batch) => (batchTouches(batch, { kind: view }) ? [{ queryKey: ['deletion', 'deleted', view] }] : []));
  return useQuery({
    queryKey: deletedKey(view, status),
    queryFn: () => getDeletedItems(view, status),
    enabled: status.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/module/restore [{ moduleName }] or /api/cluster/restore [{ clusterId }]. */
export function restoreItems(view: DeletionView, keys: readonly string[]): Promise<RestoreResponse> {
  const options = { schema: restoreResponseSchema, alertOnError: false };
  return view === 'module'
    ? api.post('/module/restore', keys.map((moduleName) => ({ moduleName })), options)
    : api.post('/cluster/restore', keys.map((clusterId) => ({ clusterId })), options);
}

/** Restore, then read the list again (same filters; the page keeps its page number). */
export function useRestoreItems(view: DeletionView) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keys: readonly string[]) => restoreItems(view, keys),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['deletion', 'deleted', view] }),
  });
}
