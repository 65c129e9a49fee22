import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { clusterExportResultSchema, moduleExportResultSchema, type ExportSearchRequest } from '@bo/shared/export-search';
import { api } from '@/lib/api-client';
import type { ExportKind, ExportResult } from '../logic/export-search';

/** POST /module/exportSearch, /cluster/exportSearch: the items to export; 413 past the limit. */
export function searchExportItems(kind: ExportKind, body: ExportSearchRequest, signal?: AbortSignal): Promise<ExportResult[]> {
  return kind === 'module'
    ? api.post('/module/exportSearch', body, { schema: z.array(moduleExportResultSchema), signal })
    : api.post('/cluster/exportSearch', body, { schema: z.array(clusterExportResultSchema), signal });
}

/** One search per Search press (`run`); nothing before the first. */
export const useExportSearch = (kind: ExportKind, body: ExportSearchRequest | null, run: number) =>
  useQuery({
    queryKey: ['exports', 'search', kind, body, run],
    queryFn: ({ signal }) => searchExportItems(kind, body!, signal),
    enabled: body !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
