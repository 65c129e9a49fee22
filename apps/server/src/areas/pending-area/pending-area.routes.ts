import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  clusterPendingPageSchema,
  modulePendingPageSchema,
  pendingAreaRequestSchema,
  pendingFilterOptionsSchema,
  pendingFiltersRequestSchema,
} from '@bo/shared/pending-area';
import { contextOf } from '../../plugins/context.js';
import * as pendingArea from './pending-area.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema };
const tags = ['pending-area'];

/** The Pending Area (docs/pending-area.md): filter options and the paged lists of modules and clusters. */
export async function pendingAreaRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/cluster/pendingAreaInitialFilters',
    {
      schema: {
        tags,
        summary: 'Pending Area filter options (status, brand, commodity, months) among the caller’s pending modules or clusters (viewType)',
        body: pendingFiltersRequestSchema,
        response: { 200: pendingFilterOptionsSchema, ...errors },
      },
    },
    (request) => pendingArea.pendingFilterOptions(contextOf(app, request), request.body.viewType),
  );
  app.post(
    '/api/module/pendingArea',
    {
      schema: {
        tags,
        summary: 'One page of the caller’s pending modules matching the filters (at least one; 413 past MAX_SEARCH_RESULTS)',
        body: pendingAreaRequestSchema,
        response: { 200: modulePendingPageSchema, 413: errorResponseSchema, ...errors },
      },
    },
    (request) => pendingArea.pendingList(contextOf(app, request), 'module', request.body),
  );
  app.post(
    '/api/cluster/pendingArea',
    {
      schema: {
        tags,
        summary: 'One page of the caller’s pending clusters matching the filters (at least one; 413 past MAX_SEARCH_RESULTS)',
        body: pendingAreaRequestSchema,
        response: { 200: clusterPendingPageSchema, 413: errorResponseSchema, ...errors },
      },
    },
    (request) => pendingArea.pendingList(contextOf(app, request), 'cluster', request.body),
  );
}
