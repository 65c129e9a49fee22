import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  clusterExportRequestSchema,
  EXPORT_FORMATS,
  exportItemListSchema,
  exportQuerySchema,
  exportStartedSchema,
  moduleExportRequestSchema,
  type ExportFormat,
  type ExportKind,
  type ExportQuery,
} from '@bo/shared/exports';
import { contextOf, type ServiceContext } from '../../plugins/context.js';
import * as exportsService from './exports.service.js';
import { contentDisposition } from '../../lib/content-disposition.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema, 500: errorResponseSchema };

function sendFile(reply: FastifyReply, file: exportsService.ExportedFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .header('x-export-id', String(file.exportId))
    .send(file.content);
}

/** Exports of modules and clusters (part 1 §7 "Exports", part 2 "Export", "PDF area"). */
export async function exportRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['exports'];

  /**
   * One kind's export call in one format. The body schema is generic here, which the type provider
   * cannot resolve: the body is read as its output, and `start`'s type checks it where the kind is named.
   */
  function exportRoute<Body extends z.ZodType>(
    format: ExportFormat,
    kind: ExportKind,
    body: Body,
    start: (ctx: ServiceContext, format: ExportFormat, query: ExportQuery, items: z.output<Body>) => Promise<exportsService.ExportAnswer>,
  ) {
    app.post(
      `/data/export/${format}/${kind}`,
      {
        schema: {
          tags,
          summary: `Export ${kind}s as ${format}: 200 the file, or 202 while it is still being built`,
          querystring: exportQuerySchema,
          body,
          response: { 202: exportStartedSchema, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await start(contextOf(app, request), format, request.query, request.body as z.output<Body>);
        return answer.done ? sendFile(reply, answer.file) : reply.code(202).send(answer.started);
      },
    );
  }

  for (const format of EXPORT_FORMATS) {
    exportRoute(format, 'module', moduleExportRequestSchema, exportsService.exportModules);
    exportRoute(format, 'cluster', clusterExportRequestSchema, exportsService.exportClusters);
  }

  app.get(
    '/data/export/files/:id',
    {
      schema: {
        tags,
        summary: 'Download a finished export (your own; an admin: any)',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 404: errorResponseSchema, 409: errorResponseSchema, 422: errorResponseSchema },
      },
    },
    async (request, reply) => sendFile(reply, await exportsService.storedFile(contextOf(app, request), request.params.id)),
  );

  app.get(
    '/api/pdfFilesArea/pdfExportStatus',
    { schema: { tags, summary: 'Your PDF exports (an admin: everybody’s), newest first', response: { 200: exportItemListSchema } } },
    (request) => exportsService.pdfExportStatus(contextOf(app, request)),
  );
}
