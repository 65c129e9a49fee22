import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  statisticClusterListSchema,
  statisticFilterOptionsSchema,
  statisticFiltersRequestSchema,
  statisticSearchRequestSchema,
} from '@bo/shared/statistics';
import { contextOf } from '../../plugins/context.js';
import * as statistics from './statistics.service.js';

const tags = ['statistics'];

/** The Statistics page (docs/statistics.md): the sliders' values and the search by share ranges. */
export async function statisticsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/cluster/statisticFiltersByBrand',
    {
      schema: {
        tags,
        summary: 'Statistics sliders: per SKU attribute, the values among the active SKUs of the caller’s clusters of the month (brands, collections)',
        body: statisticFiltersRequestSchema,
        response: { 200: statisticFilterOptionsSchema, 400: errorResponseSchema },
      },
    },
    (request) => statistics.statisticFilterOptions(contextOf(app, request), request.body),
  );
  app.post(
    '/api/cluster/statistic',
    {
      schema: {
        tags,
        summary: 'Clusters whose share of active SKUs with each filter’s value lies in its range (0–100, inclusive); 413 past MAX_SEARCH_RESULTS',
        body: statisticSearchRequestSchema,
        response: { 200: statisticClusterListSchema, 400: errorResponseSchema, 413: errorResponseSchema },
      },
    },
    (request) => statistics.statisticSearch(contextOf(app, request), request.body),
  );
}
