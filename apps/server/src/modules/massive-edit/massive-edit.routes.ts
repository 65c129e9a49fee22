import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  classificationMassiveEditRequestSchema,
  classificationRowErrors,
  clusterMassiveEditRequestSchema,
  clusterRowErrors,
  massiveEditQuerySchema,
  massiveEditResultSchema,
  massiveEditStartedSchema,
  moduleMassiveEditRequestSchema,
  moduleRowErrors,
} from '@bo/shared/massive-edit';
import { contextOf } from '../../lib/context.js';
import { massiveEdit } from './massive-edit.service.js';
import { classificationEditType, clusterEditType, moduleEditType } from './massive-edit-types.js';

const answer = z.union([massiveEditStartedSchema, massiveEditResultSchema]);
const responses = { 200: answer, 400: errorResponseSchema, 403: errorResponseSchema };
const description =
  'Validates every row (400), then answers a preview with dryRun (nothing written) or queues the job and answers its id: poll GET /api/jobs/:id, whose result is the per-row outcome.';

/** The massive edit calls (part 2 §7, docs/MASSIVE-EDIT.md). */
export async function massiveEditRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);

  for (const url of ['/api/module/massiveEdit/', '/api/module/massiveEdit']) {
    app.post(
      url,
      { schema: { tags: ['modules'], summary: 'Massive edit of modules', description, querystring: massiveEditQuerySchema, body: moduleMassiveEditRequestSchema, response: responses } },
      (request) =>
        massiveEdit(ctx(request), moduleEditType, {
          edits: request.body.massiveEditList,
          toPublish: request.body.toPublish,
          dryRun: request.body.dryRun ?? request.query.dryRun,
          rowsField: 'massiveEditList',
          rowErrors: moduleRowErrors,
        }),
    );
  }
  app.post(
    '/api/module/massiveEdit/selected',
    {
      schema: {
        tags: ['modules'],
        summary: 'Massive edit of the modules selected on home (administrators)',
        description,
        querystring: massiveEditQuerySchema,
        body: moduleMassiveEditRequestSchema,
        response: responses,
      },
    },
    (request) =>
      massiveEdit(ctx(request), moduleEditType, {
        edits: request.body.massiveEditList,
        toPublish: request.body.toPublish,
        dryRun: request.body.dryRun ?? request.query.dryRun,
        rowsField: 'massiveEditList',
        rowErrors: moduleRowErrors,
        adminOnly: true,
      }),
  );
  for (const url of ['/api/cluster/massiveEdit/', '/api/cluster/massiveEdit']) {
    app.post(
      url,
      { schema: { tags: ['clusters'], summary: 'Massive edit of clusters', description, querystring: massiveEditQuerySchema, body: clusterMassiveEditRequestSchema, response: responses } },
      (request) =>
        massiveEdit(ctx(request), clusterEditType, {
          edits: request.body.rowsClusterMassiveEdit,
          toPublish: request.body.toPublish,
          dryRun: request.body.dryRun ?? request.query.dryRun,
          rowsField: 'rowsClusterMassiveEdit',
          rowErrors: clusterRowErrors,
        }),
    );
  }
  app.post(
    '/api/cluster/massiveEdit/classification',
    {
      schema: {
        tags: ['clusters'],
        summary: 'Massive edit of client classifications of clusters',
        description,
        querystring: massiveEditQuerySchema,
        body: classificationMassiveEditRequestSchema,
        response: responses,
      },
    },
    (request) =>
      massiveEdit(ctx(request), classificationEditType, {
        edits: request.body.rowsClusterClassificationMassiveEdit,
        toPublish: false,
        dryRun: request.body.dryRun ?? request.query.dryRun,
        rowsField: 'rowsClusterClassificationMassiveEdit',
        rowErrors: classificationRowErrors,
      }),
  );
}
