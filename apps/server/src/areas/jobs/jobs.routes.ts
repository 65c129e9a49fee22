import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jobStatusSchema } from '@bo/shared/jobs';
import { contextOf } from '../../plugins/context.js';
import { jobStatus } from './jobs.service.js';

/** GET /api/jobs/:id — the progress (0–100) of long work, polled by the browser. */
export async function jobRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/jobs/:id',
    { schema: { tags: ['jobs'], params: z.object({ id: z.coerce.number().int().positive() }), response: { 200: jobStatusSchema } } },
    async (request) => jobStatus(contextOf(app, request), request.params.id),
  );
}
