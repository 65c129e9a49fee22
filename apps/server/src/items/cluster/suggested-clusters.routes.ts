import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  acceptRequestSchema,
  decisionAnswerSchema,
  rejectRequestSchema,
  suggestListAnswerSchema,
  suggestListRequestSchema,
} from '@bo/shared/suggested-clusters';
import { contextOf } from '../../plugins/context.js';
import * as service from './suggested-clusters.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema };

/** The Approve cluster page's calls (part 2 §2, §4 "Suggested cluster", §7). */
export async function suggestedClusterRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['suggested clusters'];

  app.post(
    '/api/cluster/suggestList',
    {
      schema: {
        tags,
        summary: 'Suggested clusters the caller may see (of the given countries; none = all), with filter options',
        body: suggestListRequestSchema,
        response: { 200: suggestListAnswerSchema, 400: errorResponseSchema },
      },
    },
    (request) => service.suggestList(contextOf(app, request), request.body.country),
  );

  app.post(
    '/api/cluster/accept',
    {
      schema: {
        tags,
        summary: 'Approve a PENDING suggestion: creates or updates its cluster',
        body: acceptRequestSchema,
        response: { 200: decisionAnswerSchema, ...errors },
      },
    },
    (request) => service.accept(contextOf(app, request), request.body.assortmentId),
  );

  app.post(
    '/api/cluster/reject',
    {
      schema: {
        tags,
        summary: 'Reject a PENDING suggestion, with an optional reason (message)',
        body: rejectRequestSchema,
        response: { 200: decisionAnswerSchema, ...errors },
      },
    },
    (request) => service.reject(contextOf(app, request), request.body.assortmentId, request.body.message),
  );
}
