import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { exportHistoryListSchema } from '@bo/shared/export-history';
import { contextOf } from '../../plugins/context.js';
import { exportHistory } from './export-history.service.js';

/** The export history of /history (part 2 §2 "Upload and export histories"), beside GET /api/uploadStatus/. */
export async function exportHistoryRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/exportStatus/',
    {
      schema: {
        tags: ['exports'],
        summary: 'The exports of every format: own, or everyone’s for an admin; newest first, at most 200',
        response: { 200: exportHistoryListSchema },
      },
    },
    (request) => exportHistory(contextOf(app, request)),
  );
}
