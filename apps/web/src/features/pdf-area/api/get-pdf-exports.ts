import { type ExportItem, exportItemListSchema } from '@bo/shared/exports';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The PDF list is read again every 5 seconds (part 2 §7 "PDF", §9). */
export const PDF_EXPORTS_REFRESH_MS = 5000;

/**
 * GET /pdfFilesArea/pdfExportStatus: the caller's PDF exports (an admin's: everybody's), newest first.
 * Polled: a failure shows on the page, not in the alert bar every 5 seconds (a 401 still ends the session).
 */
export function getPdfExports(): Promise<ExportItem[]> {
  return api.get('/pdfFilesArea/pdfExportStatus', { schema: exportItemListSchema, alertOnError: false });
}

export function pdfExportsQueryOptions() {
  return queryOptions({ queryKey: ['exports', 'pdf'], queryFn: getPdfExports, refetchInterval: PDF_EXPORTS_REFRESH_MS });
}

export function usePdfExports() {
  return useQuery(pdfExportsQueryOptions());
}
