import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  classificationOptionsAnswerSchema,
  clusterPercentageAnswerSchema,
  clusterPercentageRequestSchema,
  discontinuedAnswerSchema,
  discontinuedRequestSchema,
  moduleCompositionAnswerSchema,
  moduleCompositionRequestSchema,
  moduleSearchAnswerSchema,
  moduleSearchRequestSchema,
  rangeFacingAnswerSchema,
  rangeFacingRequestSchema,
} from '@bo/shared/cluster-editor';
import { errorResponseSchema } from '@bo/shared/errors';
import { contextOf } from '../../plugins/context.js';
import * as service from './cluster-editor.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 413: errorResponseSchema };

/** The cluster composition editor's own calls (part 2 §2, §7). */
export async function clusterEditorRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['cluster editor'];

  app.post(
    '/api/cluster/rangeFacingDto',
    { schema: { tags, summary: "Each cluster's range facing ('min-max')", body: rangeFacingRequestSchema, response: { 200: rangeFacingAnswerSchema, ...errors } } },
    (request) => service.rangeFacing(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/clusterPercentage',
    {
      schema: {
        tags,
        summary: 'Total SKUs and refresh percentage of compositions (unsaved edits count)',
        body: clusterPercentageRequestSchema,
        response: { 200: clusterPercentageAnswerSchema, ...errors },
      },
    },
    (request) => service.clusterPercentage(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/moduleSearch',
    {
      schema: {
        tags,
        summary: 'Modules of a month for the editor (needs a country, a family or more than 4 characters)',
        body: moduleSearchRequestSchema,
        response: { 200: moduleSearchAnswerSchema, ...errors },
      },
    },
    (request) => service.searchModules(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/discontinuedModules',
    {
      schema: {
        tags,
        summary: 'ADDED modules of the clusters that hold discontinued SKUs',
        body: discontinuedRequestSchema,
        response: { 200: discontinuedAnswerSchema, ...errors },
      },
    },
    (request) => service.discontinuedModules(contextOf(app, request), request.body),
  );

  app.get(
    '/api/cluster/classificationOptions',
    { schema: { tags, summary: 'Client classifications for the picker', response: { 200: classificationOptionsAnswerSchema } } },
    (request) => service.classificationOptions(contextOf(app, request)),
  );

  app.post(
    '/api/cluster/moduleComposition',
    {
      schema: {
        tags,
        summary: "A module's active SKUs (read only)",
        body: moduleCompositionRequestSchema,
        response: { 200: moduleCompositionAnswerSchema, ...errors },
      },
    },
    (request) => service.moduleComposition(contextOf(app, request), request.body),
  );
}
