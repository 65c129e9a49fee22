import { type ExportHistoryItem, exportHistoryListSchema } from '@bo/shared/export-history';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Read again every 5 seconds, like the upload history beside it (part 2 §9). */
export const EXPORT_HISTORY_REFRESH_MS = 5000;

/**
 * GET /exportStatus/: the caller's exports of every format (an admin's: everybody's), newest first.
 * Polled: a failure shows on the page, not in the alert bar every 5 seconds (a 401 still ends the session).
 */
export function getExportHistory(): Promise<ExportHistoryItem[]> {
  return api.get('/exportStatus/', { schema: exportHistoryListSchema, alertOnError: false });
}

export function exportHistoryQueryOptions() {
  return queryOptions({ queryKey: ['exports', 'history'], queryFn: getExportHistory, refetchInterval: EXPORT_HISTORY_REFRESH_MS });
}

export function useExportHistory() {
  return useQuery(exportHistoryQueryOptions());
}
