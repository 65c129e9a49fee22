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
  massiveEditAnswerSchema,
  massiveEditResultSchema,
  moduleMassiveEditRequestSchema,
  moduleRowErrors,
} from '@bo/shared/massive-edit';
import { contextOf } from '../../plugins/context.js';
import { massiveEdit } from './massive-edit.service.js';
import { classificationEditType, clusterEditType, moduleEditType } from './massive-edit-types.js';

/** A preview's result (dryRun), or the answer of a call that writes: the job to poll, or the refusal of every item. */
const answer = z.union([massiveEditResultSchema, massiveEditAnswerSchema]);
const responses = { 200: answer, 400: errorResponseSchema, 403: errorResponseSchema };
const description =
  'Validates every row (400), then answers a preview with dryRun (nothing written) or queues the job and answers its id: poll GET /api/jobs/:id, whose result is the per-row outcome. When the caller may change none of the items, no job is queued: the answer is status REFUSED with jobId null, progress 100 and that result.';

/** The massive edit calls (part 2 §7, docs/MASSIVE-EDIT.md). */
export async function massiveEditRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  /** One massive edit route: its body's rows field, the type's row rules, and whether it is for admins only. */
  function route<Body extends z.ZodType<{ toPublish?: boolean; dryRun?: boolean | undefined }>, Edit>(
    urls: readonly string[],
    meta: { tags: string[]; summary: string; body: Body },
    type: Parameters<typeof massiveEdit>[1],
    rows: (body: z.output<Body>) => readonly Edit[],
    options: { rowsField: string; rowErrors: (edit: Edit) => string[]; adminOnly?: boolean },
  ) {
    for (const url of urls) {
      app.post(url, { schema: { ...meta, description, querystring: massiveEditQuerySchema, response: responses } }, (request) => {
        const body = request.body as z.output<Body>;
        return massiveEdit(contextOf(app, request), type, {
          edits: rows(body),
          toPublish: body.toPublish ?? false,
          dryRun: body.dryRun ?? (request.query as { dryRun: boolean }).dryRun,
          ...options,
        } as Parameters<typeof massiveEdit>[2]);
      });
    }
  }

  const modules = (body: z.output<typeof moduleMassiveEditRequestSchema>) => body.massiveEditList;
  route(['/api/module/massiveEdit/', '/api/module/massiveEdit'], { tags: ['modules'], summary: 'Massive edit of modules', body: moduleMassiveEditRequestSchema }, moduleEditType, modules, {
    rowsField: 'massiveEditList',
    rowErrors: moduleRowErrors,
  });
  route(
    ['/api/module/massiveEdit/selected'],
    { tags: ['modules'], summary: 'Massive edit of the modules selected on home (administrators)', body: moduleMassiveEditRequestSchema },
    moduleEditType,
    modules,
    { rowsField: 'massiveEditList', rowErrors: moduleRowErrors, adminOnly: true },
  );
  route(
    ['/api/cluster/massiveEdit/', '/api/cluster/massiveEdit'],
    { tags: ['clusters'], summary: 'Massive edit of clusters', body: clusterMassiveEditRequestSchema },
    clusterEditType,
    (body) => body.rowsClusterMassiveEdit,
    { rowsField: 'rowsClusterMassiveEdit', rowErrors: clusterRowErrors },
  );
  route(
    ['/api/cluster/massiveEdit/classification'],
    { tags: ['clusters'], summary: 'Massive edit of client classifications of clusters', body: classificationMassiveEditRequestSchema },
    classificationEditType,
    (body) => body.rowsClusterClassificationMassiveEdit,
    { rowsField: 'rowsClusterClassificationMassiveEdit', rowErrors: classificationRowErrors },
  );
}
