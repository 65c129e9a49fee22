import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import { productFiltersAnswerSchema, productFiltersRequestSchema } from '@bo/shared/module-info';
import { contextOf } from '../../plugins/context.js';
import { productFilters } from './product-filters.service.js';

/** POST /api/product/filters (docs/module-calls.md). */
export async function productFilterRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/product/filters',
    {
      schema: {
        tags: ['working-area'],
        summary: 'Options of the Active SKUs search (anagraFilters) and of the performance filters (ibicFilters)',
        body: productFiltersRequestSchema,
        response: { 200: productFiltersAnswerSchema, 400: errorResponseSchema },
      },
    },
    (request) => productFilters(contextOf(app, request), request.body),
  );
}
