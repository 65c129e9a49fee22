import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ExportFiltersRequest, ExportFilterKey } from '@bo/shared/export-search';
import { filterOptionsSchema } from '@bo/shared/search';
import { api } from '@/lib/api-client';
import type { ExportKind } from '../logic/export-search';

/** POST /{module|cluster}/exportFilters?keys=…: each filter's values among the items the other filters leave. */
export const getExportFilters = (kind: ExportKind, body: ExportFiltersRequest, keys: readonly ExportFilterKey[], signal?: AbortSignal) =>
  api.post(`/${kind}/exportFilters`, body, { schema: filterOptionsSchema, query: { keys: keys.join(',') }, signal });

/** The options of the sidebar's filters, kept on screen while a new choice reloads them. */
export const useExportFilters = (kind: ExportKind, body: ExportFiltersRequest, keys: readonly ExportFilterKey[]) =>
  useQuery({
    queryKey: ['exports', 'filters', kind, body, keys],
    queryFn: ({ signal }) => getExportFilters(kind, body, keys, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
