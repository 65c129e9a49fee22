import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import { clusterBrandOptionsRequestSchema, clusterChannelOptionsRequestSchema, clusterOptionsAnswerSchema } from '@bo/shared/module-info';
import { contextOf } from '../../plugins/context.js';
import * as options from './cluster-options.service.js';

const errors = { 400: errorResponseSchema, 404: errorResponseSchema };
const tags = ['cluster-options'];

/** Option lists of a release for the cluster screens (docs/module-calls.md). */
export async function clusterOptionRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/cluster/brand',
    {
      schema: {
        tags,
        summary: 'Brands of the live modules and clusters of a release’s months that the caller may view',
        body: clusterBrandOptionsRequestSchema,
        response: { 200: clusterOptionsAnswerSchema, ...errors },
      },
    },
    (request) => options.brandOptions(contextOf(app, request), request.body.releaseId),
  );
  app.post(
    '/api/cluster/planningChannel',
    {
      schema: {
        tags,
        summary: 'Planning channels of the live modules and clusters of a release’s months (optionally of some brands) that the caller may view',
        body: clusterChannelOptionsRequestSchema,
        response: { 200: clusterOptionsAnswerSchema, ...errors },
      },
    },
    (request) => options.planningChannelOptions(contextOf(app, request), request.body.releaseId, request.body.brand),
  );
}
