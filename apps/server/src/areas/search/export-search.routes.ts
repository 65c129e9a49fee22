import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import { clusterExportResultSchema, exportFiltersRequestSchema, exportSearchRequestSchema, moduleExportResultSchema } from '@bo/shared/export-search';
import { filterOptionsQuerySchema, filterOptionsSchema } from '@bo/shared/search';
import { contextOf } from '../../plugins/context.js';
import * as exportSearch from './export-search.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema };

/** The Export Data page (docs/exports.md "Export Data page"): filter options and the export search, per kind. */
export async function exportSearchRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);
  const tags = ['exports', 'search'];

  for (const kind of ['module', 'cluster'] as const) {
    const items = kind === 'module' ? 'modules' : 'clusters';
    app.post(
      `/api/${kind}/exportFilters`,
      {
        schema: {
          tags,
          summary: `Export filter options among the ${items} the caller may export, each narrowed by the other filters and the statuses`,
          querystring: filterOptionsQuerySchema,
          body: exportFiltersRequestSchema,
          response: { 200: filterOptionsSchema, ...errors },
        },
      },
      (request) => exportSearch.exportFilterOptions(ctx(request), kind, request.body, request.query.keys),
    );
  }

  app.post(
    '/api/module/exportSearch',
    {
      schema: {
        tags,
        summary: 'Modules to export: month (required), statuses Published and/or Saved, export filters (413 past MAX_SEARCH_RESULTS)',
        body: exportSearchRequestSchema,
        response: { 200: z.array(moduleExportResultSchema), 413: errorResponseSchema, ...errors },
      },
    },
    (request) => exportSearch.searchModulesToExport(ctx(request), request.body),
  );
  app.post(
    '/api/cluster/exportSearch',
    {
      schema: {
        tags,
        summary: 'Clusters to export: month (required), statuses Published and/or Saved, export filters (413 past MAX_SEARCH_RESULTS)',
        body: exportSearchRequestSchema,
        response: { 200: z.array(clusterExportResultSchema), 413: errorResponseSchema, ...errors },
      },
    },
    (request) => exportSearch.searchClustersToExport(ctx(request), request.body),
  );
}
