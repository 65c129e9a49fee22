import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { classificationCreateQuerySchema, classificationDeleteQuerySchema, classificationSchema } from '@bo/shared/classifications';
import { errorResponseSchema } from '@bo/shared/errors';
import { contextOf } from '../../plugins/context.js';
import * as classifications from './classifications.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

/** The client classification popup's calls (part 2 §7: "paths … under the classification resource"). */
export async function classificationRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['classifications'];
  app.get('/api/classification/all', { schema: { tags, summary: 'Every client classification, by label', response: { 200: z.array(classificationSchema) } } }, (request) =>
    classifications.listClassifications(contextOf(app, request)),
  );
  app.post(
    '/api/classification/create',
    {
      schema: {
        tags,
        summary: 'Create a client classification (A-Z, 0-9, _ and -, at most 15 characters; no duplicates)',
        querystring: classificationCreateQuerySchema,
        response: { 200: classificationSchema, ...errors },
      },
    },
    (request) => classifications.createClassification(contextOf(app, request), request.query.classificationLabel),
  );
  app.delete(
    '/api/classification/delete',
    {
      schema: {
        tags,
        summary: 'Delete a client classification: each live cluster carrying it loses it as a change of that cluster (403 classificationInUse, nothing changed, when the caller may not change one of them now)',
        querystring: classificationDeleteQuerySchema,
        response: {
          200: z.object({ classificationId: z.number().int(), classificationLabel: z.string(), removedFromClusters: z.number().int() }),
          ...errors,
        },
      },
    },
    (request) => classifications.deleteClassification(contextOf(app, request), request.query.classificationId),
  );
}
